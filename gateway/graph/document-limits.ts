/**
 * Bounds on the shape of a GraphQL document, checked before GraphQL's own validation runs.
 *
 * Why before: graphql-js validation is not linear in the document. OverlappingFieldsCanBeMerged
 * compares every pair of fields sharing a response name (recursively, through fragments), so
 * 2,000 tokens of `{ b{a} b{a} … }` cost a quarter of a second of the event loop, and a fragment
 * that spreads the next one twice, 26 levels deep, costs 40 s in a rule that walks every spread.
 * Apollo Server runs its `validationRules` after the specified rules in the same pass and offers
 * no hook that may refuse a document between parsing and validation, so the HTTP route checks the
 * document with these rules first (gateway/http/app.ts) and graphql-ws does the same on subscribe.
 *
 * Every rule here visits each fragment once (memoised), so the check is linear in the document:
 * - tokens: graphql-js's own parser limit (parse's maxTokens), also given to Apollo Server;
 * - depth, aliases, directives: graphql-armor's maintained rules (memoised per fragment);
 * - selections: the fields an operation expands to, fragments spread as often as they are
 *   (Apollo's "recursive selections" measure), which is what execution would walk;
 * - duplicate selections: fields that share a response name with an earlier one in their
 *   selection set once fragments are spread, which is what makes the overlap check quadratic.
 */
import { maxAliasesRule } from '@escape.tech/graphql-armor-max-aliases';
import { maxDepthRule } from '@escape.tech/graphql-armor-max-depth';
import { maxDirectivesRule } from '@escape.tech/graphql-armor-max-directives';
import {
  GraphQLError,
  Kind,
  parse,
  validate,
  type ASTVisitor,
  type DocumentNode,
  type GraphQLSchema,
  type SelectionSetNode,
  type ValidationContext,
  type ValidationRule,
} from 'graphql';

export interface DocumentLimits {
  /** Lexical tokens per document; bulk inputs belong in variables, which are not tokens. @default 5000 */
  maxTokens: number;
  /** Nesting of fields, fragments flattened, introspection's __schema not counted. @default 12 */
  maxDepth: number;
  /** Aliased fields, fragments counted as often as they are spread. @default 50 */
  maxAliases: number;
  /** Directives, counted the same way. @default 50 */
  maxDirectives: number;
  /** Fields an operation expands to (the standard introspection query expands to 228). @default 1000 */
  maxSelections: number;
  /** Fields sharing a response name with an earlier field of their selection set (each pair is compared). @default 30 */
  maxDuplicateSelections: number;
}

export const DEFAULT_DOCUMENT_LIMITS: DocumentLimits = {
  maxTokens: 5000,
  maxDepth: 12,
  maxAliases: 50,
  maxDirectives: 50,
  maxSelections: 1000,
  maxDuplicateSelections: 30,
};

/** The error codes of refused documents (GraphQL `extensions.code`). */
export const QUERY_TOO_DEEP = 'QUERY_TOO_DEEP';
export const QUERY_TOO_COMPLEX = 'QUERY_TOO_COMPLEX';

function refusal(message: string, code: string): GraphQLError {
  return new GraphQLError(message, { extensions: { code } });
}

/** graphql-armor's rules throw their own "Syntax Error" by default; report ours instead, with a code. */
function armorOptions(n: number, code: string, what: string) {
  return {
    n,
    propagateOnRejection: false,
    onReject: [(context: ValidationContext | null, error: GraphQLError) => context?.reportError(refusal(`${what}: ${error.message.replace(/^Syntax Error: /, '')}`, code))],
  };
}

interface Expansion {
  /** Fields the selection set expands to, nested ones included. */
  selections: number;
  /** Response name → how often it occurs at the top of the expanded set. */
  names: Map<string, number>;
  /** Duplicate response names in the nested selection sets. */
  innerDuplicates: number;
}

function duplicatesIn(names: Map<string, number>): number {
  let duplicates = 0;
  for (const count of names.values()) duplicates += count - 1;
  return duplicates;
}

/** Expanded selections and duplicate response names, each fragment measured once. */
function expandedSelectionsRule(maxSelections: number, maxDuplicates: number): ValidationRule {
  return (context): ASTVisitor => {
    const fragments = new Map<string, Expansion | null>(); // null: being measured (a cycle, refused by NoFragmentCycles)
    const measure = (set: SelectionSetNode | undefined): Expansion => {
      const result: Expansion = { selections: 0, names: new Map(), innerDuplicates: 0 };
      const merge = (inner: Expansion, times = 1) => {
        result.selections += inner.selections * times;
        result.innerDuplicates += inner.innerDuplicates * times;
        for (const [name, count] of inner.names) result.names.set(name, (result.names.get(name) ?? 0) + count * times);
      };
      for (const selection of set?.selections ?? []) {
        if (selection.kind === Kind.FIELD) {
          const name = (selection.alias ?? selection.name).value;
          result.names.set(name, (result.names.get(name) ?? 0) + 1);
          result.selections += 1;
          if (selection.selectionSet) {
            const inner = measure(selection.selectionSet);
            result.selections += inner.selections;
            result.innerDuplicates += inner.innerDuplicates + duplicatesIn(inner.names);
          }
        } else if (selection.kind === Kind.INLINE_FRAGMENT) {
          merge(measure(selection.selectionSet));
        } else {
          const name = selection.name.value;
          if (!fragments.has(name)) {
            fragments.set(name, null);
            fragments.set(name, measure(context.getFragment(name)?.selectionSet));
          }
          const fragment = fragments.get(name);
          if (fragment) merge(fragment);
        }
      }
      return result;
    };
    return {
      OperationDefinition(operation) {
        const expansion = measure(operation.selectionSet);
        const duplicates = expansion.innerDuplicates + duplicatesIn(expansion.names);
        if (expansion.selections > maxSelections) {
          context.reportError(refusal(`The operation expands to ${expansion.selections} fields (fragments spread as often as they are); the limit is ${maxSelections}`, QUERY_TOO_COMPLEX));
        } else if (duplicates > maxDuplicates) {
          context.reportError(refusal(`The operation selects ${duplicates} fields under a response name already selected beside them; the limit is ${maxDuplicates}`, QUERY_TOO_COMPLEX));
        }
        return false; // measured whole: nothing below needs a visit
      },
    };
  };
}

/** The rules, in the order they are cheapest to fail. */
function documentLimitRules(limits: DocumentLimits): ValidationRule[] {
  return [
    expandedSelectionsRule(limits.maxSelections, limits.maxDuplicateSelections),
    maxDepthRule({ ...armorOptions(limits.maxDepth, QUERY_TOO_DEEP, 'The query is too deep'), flattenFragments: true, ignoreIntrospection: true }),
    maxAliasesRule({ ...armorOptions(limits.maxAliases, QUERY_TOO_COMPLEX, 'Too many aliases'), allowList: [] }),
    maxDirectivesRule(armorOptions(limits.maxDirectives, QUERY_TOO_COMPLEX, 'Too many directives')),
  ];
}

/**
 * Parses `source` within the token limit and checks its shape; linear in the document. No errors
 * means the document may go on to GraphQL validation, which is bounded now: it may still refuse
 * the document (unknown fields, syntax errors: Apollo Server phrases those, so they are left to it).
 */
export function checkDocument(schema: GraphQLSchema, source: string, limits: DocumentLimits = DEFAULT_DOCUMENT_LIMITS): readonly GraphQLError[] {
  let document: DocumentNode;
  try {
    document = parse(source, { maxTokens: limits.maxTokens });
  } catch (error) {
    // graphql-js words it "Document contains more that N tokens" (sic) in 16.x.
    if (!/contains more tha[nt] \d+ tokens/.test((error as Error).message)) return [];
    return [refusal(`The document has more than ${limits.maxTokens} tokens; send bulk inputs as variables`, QUERY_TOO_COMPLEX)];
  }
  return validate(schema, document, documentLimitRules(limits), { maxErrors: 10 });
}
