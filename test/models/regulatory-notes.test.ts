/** The model cards' regulatory notes (tools/cards/regulatory-notes.ts): the nondiscrimination check measured on held-out rows. */
import { groupBiases, regulatoryNotes, GROUP_BIAS_BAND } from '../../tools/cards/regulatory-notes';
import { random } from '../support/random';

/** Held-out rows of three districts; 'c' is valued 20% below its prices, the others scatter around theirs. */
function rows(seed: number) {
  const draw = random(seed);
  return ['a', 'b', 'c'].flatMap((district) => Array.from({ length: 200 }, () => {
    const actual = 60_000 * Math.exp(0.2 * draw.normal());
    const predicted = actual * Math.exp(0.1 * draw.normal()) / (district === 'c' ? 1.2 : 1);
    return { district, actual, predicted, low: predicted * 0.8, high: predicted * 1.25 };
  }));
}

describe('the nondiscrimination check', () => {
  const held = rows(5);

  it('measures each group\'s median bias with a 95% interval, and finds the one valued low', () => {
    const biases = groupBiases(held, (r) => r.district);
    expect(biases.map((b) => b.group).sort()).toEqual(['a', 'b', 'c']);
    const c = biases.find((b) => b.group === 'c')!;
    expect(c.medianBias).toBeCloseTo(Math.log(1.2), 1);
    expect(c.low).toBeGreaterThan(GROUP_BIAS_BAND);
    for (const b of biases.filter((x) => x.group !== 'c')) {
      expect(b.low).toBeLessThan(0.02);
      expect(b.high).toBeGreaterThan(-0.02);
    }
    // Groups too small to judge are left out.
    expect(groupBiases(held.slice(0, 20), (r) => r.district)).toEqual([]);
  });

  it('names the flagged group in the card, with the between-group sd beyond noise', () => {
    const text = regulatoryNotes({
      groupName: 'district', rows: held, groupOf: (r) => r.district, label: (g) => g.toUpperCase(),
      forwardView: 'synthetic', newestData: '2026-07', dataAgeMonths: 4, trainingRows: 1000,
    }).join('\n');
    expect(text).toContain('## Regulatory notes');
    expect(text).toMatch(/1 of 3 districts have a bias whose 95% interval lies wholly outside ±5%: C \+\d+\.\d%/);
    const tau = Number(/beyond sampling noise \(DerSimonian–Laird\) is (\d\.\d{3})/.exec(text)![1]);
    expect(tau).toBeGreaterThan(0.05);
    expect(text).toContain('newest market data are of 2026-07, 4 months before');
  });

  it('says so when no group is off', () => {
    const fair = held.filter((r) => r.district !== 'c');
    const text = regulatoryNotes({ groupName: 'district', rows: fair, groupOf: (r) => r.district, forwardView: 'synthetic', newestData: '2026-07', dataAgeMonths: 0, trainingRows: 1 }).join('\n');
    expect(text).toContain("No district's bias has a 95% interval wholly outside ±5%.");
  });
});
