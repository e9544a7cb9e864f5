/**
 * MCP prompts: reusable instructions a person picks in an assistant. "Revalue this collateral"
 * walks the assistant through the tools in the order a credit officer would: value it again,
 * compare with the value on file, weigh the confidence, flags and model accuracy, recommend.
 * Prompt arguments are strings in MCP; the assistant fills the tool arguments from them.
 */
import type { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import { z } from 'zod';

export const REVALUE_PROMPT = 'revalue_collateral';

export function registerPrompts(server: McpServer): void {
  server.registerPrompt(REVALUE_PROMPT, {
    title: 'Revalue this collateral',
    description: 'Revalue a flat in Tashkent or a used vehicle held as loan collateral, compare with the value on file, and recommend whether the new value can be relied on or needs a valuer.',
    argsSchema: {
      collateral: z.string().describe('The collateral as you know it: its details (district, mahalla or address, area, rooms, floor, floors in the building, renovation…; or make, model, year, mileage, condition…), or the JSON of its last valuation request'),
      kind: z.enum(['home', 'vehicle']).optional().describe('home (a flat) or vehicle; guessed from the details when omitted'),
      previous_value: z.string().optional().describe('The value on file, in USD'),
      previous_date: z.string().optional().describe('When that value was set (e.g. 2025-03-01)'),
    },
  }, ({ collateral, kind, previous_value, previous_date }) => ({
    description: 'Revalue collateral with the valuation tools',
    messages: [{ role: 'user', content: { type: 'text', text: revaluePrompt({ collateral, kind, previousValue: previous_value, previousDate: previous_date }) } }],
  }));
}

export function revaluePrompt(a: { collateral: string; kind?: 'home' | 'vehicle'; previousValue?: string; previousDate?: string }): string {
  const onFile = a.previousValue ? `Value on file: ${a.previousValue} USD${a.previousDate ? ` (set ${a.previousDate})` : ''}.` : 'No value on file was given.';
  return [
    `Revalue this ${a.kind === 'vehicle' ? 'vehicle' : a.kind === 'home' ? 'flat' : 'collateral (a flat in Tashkent or a used vehicle)'} for a bank's collateral review.`,
    '',
    `Collateral: ${a.collateral}`,
    onFile,
    '',
    'Steps:',
    '1. A flat: call value_home with district, area, rooms, floor and total_floors, and mahalla, renovation, building_type, furniture and bathroom when known. With only an address, call geocode_address first and use its matched district and mahalla. A vehicle: call value_vehicle with make, model and year, and mileage, engine, body_type, transmission, fuel, drive, trim, condition, paint, colour and region when known (the listing\'s own words will do).',
    '2. Never invent a required detail: if one is missing, ask for it. If a tool answers with an error, read its code: fix the argument it names (suggestions help with UNKNOWN_DISTRICT and UNKNOWN_VEHICLE); INSUFFICIENT_MARKET_DATA means no reliable value exists, so say so instead of estimating.',
    '3. Report the estimate with its 90% interval and confidence level, quoting the tool\'s summary sentence, and the change from the value on file in USD and percent.',
    '4. For a flat, call get_model_accuracy with kind residential and quote the accuracy class of its district; mention any anomaly flags and warnings.',
    '5. Recommend: rely on the new value when confidence is high or medium, there are no anomaly flags and the value on file lies inside the interval; otherwise, or when the value fell by more than 10%, send the collateral to a valuer. Say which rule decided.',
  ].join('\n');
}
