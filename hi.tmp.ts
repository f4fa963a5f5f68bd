import highsLoader from 'highs';
const h = await highsLoader();
const lp = `Minimize
 obj: 0.1 x0 + 0.25 x1
Subject To
 c0: 2 x0 + 1 x1 >= 5
 c1: 1 x0 + 3 x1 >= 4.5
 c2: - x0 - x1 >= -10
End`;
const r = h.solve(lp, {});
console.log(r.Status, r.ObjectiveValue, JSON.stringify(r.Columns), JSON.stringify(r.Rows));
const mip = `Maximize
 obj: 3 a + 2 b
Subject To
 r0: 2 a + 1.5 b <= 7
Bounds
 0 <= a <= 10
 0 <= b <= 10
General
 a b
End`;
const m = h.solve(mip, { mip_rel_gap: 0 });
console.log(m.Status, m.ObjectiveValue, JSON.stringify(m.Columns));
