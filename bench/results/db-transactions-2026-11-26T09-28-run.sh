#!/bin/bash
# A/B: transactions per 1,000 requests, before (cc69117) and after (rate-sized blocks), alternating.
for path in direct pgbouncer; do
  for v in after before; do
    dir=/work/main; [ $v = before ] && dir=/work/wt/before
    (cd $dir && npx ts-node --transpile-only bench/db-transactions.ts --titles 30000 --seconds 5 --paths $path) > /work/bench-data/ab/$path-$v.md 2>/work/bench-data/ab/$path-$v.err
  done
done
echo DONE > /work/bench-data/ab/done
#!/bin/bash
# Final main (all three paths) and the session's start (cc69117) behind PgBouncer alone.
cd /work/main && npx ts-node --transpile-only bench/db-transactions.ts --titles 30000 --seconds 5 > /work/bench-data/ab/main-all.md 2>/work/bench-data/ab/main-all.err
cd /work/wt/before && npx ts-node --transpile-only bench/db-transactions.ts --titles 30000 --seconds 5 --paths pgbouncer > /work/bench-data/ab/pgbouncer-before.md 2>/work/bench-data/ab/pgbouncer-before.err
echo DONE > /work/bench-data/ab/done2
