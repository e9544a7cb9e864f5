/**
 * Operations run on a subgraph's schema in the same process (the gateway's all-in-one fetcher, a
 * subgraph calling a peer in process) come from a few fixed documents: each is parsed and
 * validated once and kept, with its parse or validation errors when it has them.
 */
import { parse, validate, type DocumentNode, type GraphQLFormattedError, type GraphQLSchema } from 'graphql';

/** Distinct operations kept. @default 1000 */
const MAX_DOCUMENTS = 1000;

export class PreparedDocuments {
  private readonly documents = new Map<string, DocumentNode | readonly GraphQLFormattedError[]>();

  constructor(
    private readonly schema: GraphQLSchema,
    private readonly max = MAX_DOCUMENTS,
  ) {}

  /** The document ready to execute, or the errors refusing it (a parse failure has code GRAPHQL_PARSE_FAILED). */
  get(query: string): DocumentNode | readonly GraphQLFormattedError[] {
    let prepared = this.documents.get(query);
    if (prepared) return prepared;
    try {
      const document = parse(query);
      const errors = validate(this.schema, document);
      prepared = errors.length ? errors.map((e) => e.toJSON()) : document;
    } catch (error) {
      prepared = [{ message: (error as Error).message, extensions: { code: 'GRAPHQL_PARSE_FAILED' } }];
    }
    if (this.documents.size >= this.max) this.documents.delete(this.documents.keys().next().value!);
    this.documents.set(query, prepared);
    return prepared;
  }
}

/** Whether `prepared` is the document rather than the errors refusing it. */
export function isDocument(prepared: DocumentNode | readonly GraphQLFormattedError[]): prepared is DocumentNode {
  return 'kind' in prepared;
}
