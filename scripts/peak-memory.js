// Runs a command and reports the peak memory of its process tree (Linux, /proc), sampled every
// 250 ms: the sum of the resident set sizes of the command and every descendant alive at the
// sample, and the largest single process. A process once seen in the tree stays counted after it
// detaches (a daemon re-parented to init, e.g. a PostgreSQL server started with pg_ctl), as do its
// descendants; one that detaches within a sampling interval is missed.
//   node scripts/peak-memory.js <command> [arguments...]
// Prints one line on stderr when the command ends and exits with the command's status.
const { spawn } = require('node:child_process');
const { readFileSync, readdirSync } = require('node:fs');

const SAMPLE_MS = 250;
const PAGE_KB = 4;

function processTable() {
  const table = [];
  for (const entry of readdirSync('/proc')) {
    if (!/^\d+$/.test(entry)) continue;
    try {
      const stat = readFileSync(`/proc/${entry}/stat`, 'utf8');
      // The command name is in parentheses and may hold spaces: the fields follow the last ')'.
      const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
      const rssKb = Number(fields[21]) * PAGE_KB;
      const name = stat.slice(stat.indexOf('(') + 1, stat.lastIndexOf(')'));
      // pid and start time together name a process: a pid may be reused later.
      table.push({ id: `${entry}@${fields[19]}`, pid: Number(entry), ppid: Number(fields[1]), rssKb, name });
    } catch {
      // The process ended while we read it.
    }
  }
  return table;
}

/** Every process seen in the tree so far, by id. */
const members = new Set();

function treeOf(rootPid) {
  const table = processTable();
  const children = new Map();
  for (const proc of table) children.set(proc.ppid, [...(children.get(proc.ppid) ?? []), proc]);
  const tree = table.filter((proc) => proc.pid === rootPid || members.has(proc.id));
  const inTree = new Set(tree.map((proc) => proc.id));
  for (let i = 0; i < tree.length; i++) {
    for (const child of children.get(tree[i].pid) ?? []) {
      if (!inTree.has(child.id)) {
        inTree.add(child.id);
        tree.push(child);
      }
    }
  }
  for (const proc of tree) members.add(proc.id);
  return tree;
}

const [command, ...args] = process.argv.slice(2);
if (!command) {
  console.error('usage: node scripts/peak-memory.js <command> [arguments...]');
  process.exit(2);
}
const child = spawn(command, args, { stdio: 'inherit' });
let peakTreeKb = 0;
let peakTreeAt = '';
let peakOne = { rssKb: 0, name: '' };
const started = Date.now();
const sampler = setInterval(() => {
  const tree = treeOf(child.pid);
  const totalKb = tree.reduce((sum, proc) => sum + proc.rssKb, 0);
  if (totalKb > peakTreeKb) {
    peakTreeKb = totalKb;
    peakTreeAt = `${tree.length} processes, ${Math.round((Date.now() - started) / 1000)} s in`;
  }
  for (const proc of tree) if (proc.rssKb > peakOne.rssKb) peakOne = proc;
}, SAMPLE_MS);

child.on('exit', (code, signal) => {
  clearInterval(sampler);
  const mb = (kb) => `${Math.round(kb / 1024)} MB`;
  console.error(
    `peak memory of the tree: ${mb(peakTreeKb)} (${peakTreeAt}); largest process: ` +
      `${mb(peakOne.rssKb)} (${peakOne.name}); ${Math.round((Date.now() - started) / 1000)} s`,
  );
  process.exit(code ?? (signal ? 1 : 0));
});
