/**
 * Pools the rounds of several `ab-lookup.ts` reports (one per sitting) into one comparison: a server
 * process keeps the speed it settles into for its life, so one sitting follows which processes
 * settled fast, and only many processes over several sittings compare two builds.
 *   npx ts-node --transpile-only bench/ab-pool.ts bench/out/ab-lookup-….json [more reports]
 * Labels that differ only by a trailing digit are builds of one tree (`main`, `main2`: a control);
 * a round's CPU per request for the tree is the mean of its builds'. For each tree it prints the
 * per-round CPU efficiency against bare (bare's CPU µs per request ÷ the tree's) and against the first
 * tree, and for the first tree's builds against each other (what the sittings' own noise makes of one
 * tree): median and quartiles over every round of every report, and the rounds counted.
 */
import { readFileSync } from 'node:fs';
import { median } from './median';

interface Sample {
  cpuMicrosPerRequest: number;
}

interface Report {
  perRound: Record<string, Sample[]>;
}

/** The lower quartile, the median and the upper quartile, as `median` picks its middle. */
function quartiles(numbers: readonly number[]): [number, number, number] {
  const sorted = [...numbers].sort((a, b) => a - b);
  const at = (share: number) => sorted[Math.floor(sorted.length * share)];
  return [at(0.25), median(numbers), at(0.75)];
}

const round3 = (n: number) => Math.round(n * 1000) / 1000;
const summary = (ratios: readonly number[]) => ({
  rounds: ratios.length,
  median: round3(median(ratios)),
  quartiles: quartiles(ratios).map(round3),
});

function main(): void {
  const files = process.argv.slice(2);
  if (files.length === 0) throw new Error('name the ab-lookup reports to pool');
  const treeOf = (label: string) => label.replace(/\d+$/, '');
  const versusBare = new Map<string, number[]>();
  const versusFirst = new Map<string, number[]>();
  const control: number[] = [];
  let firstTree: string | undefined;
  for (const file of files) {
    const { perRound } = JSON.parse(readFileSync(file, 'utf8')) as Report;
    const labels = Object.keys(perRound).filter((label) => label !== 'bare');
    const trees = [...new Set(labels.map(treeOf))];
    firstTree ??= trees[0];
    if (trees[0] !== firstTree) throw new Error(`${file}: its first tree is ${trees[0]}, not ${firstTree}`);
    const builds = (tree: string) => labels.filter((label) => treeOf(label) === tree);
    for (let round = 0; round < perRound.bare.length; round++) {
      const cpuOf = (label: string) => perRound[label][round].cpuMicrosPerRequest;
      const treeCpu = (tree: string) =>
        builds(tree).reduce((sum, label) => sum + cpuOf(label), 0) / builds(tree).length;
      for (const tree of trees) {
        versusBare.set(tree, [...(versusBare.get(tree) ?? []), cpuOf('bare') / treeCpu(tree)]);
        if (tree !== firstTree)
          versusFirst.set(tree, [...(versusFirst.get(tree) ?? []), treeCpu(firstTree) / treeCpu(tree)]);
      }
      const [one, two] = builds(firstTree);
      if (two !== undefined) control.push(cpuOf(one) / cpuOf(two));
    }
  }
  console.log(
    JSON.stringify(
      {
        reports: files.length,
        versusBare: Object.fromEntries([...versusBare].map(([tree, ratios]) => [tree, summary(ratios)])),
        [`versus ${firstTree}`]: Object.fromEntries(
          [...versusFirst].map(([tree, ratios]) => [tree, summary(ratios)]),
        ),
        [`${firstTree}'s second build ÷ its first`]: control.length > 0 ? summary(control) : null,
      },
      null,
      2,
    ),
  );
}

main();
