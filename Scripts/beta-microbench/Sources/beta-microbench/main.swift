// ns per draw of the bandit's samplers: the ziggurat normal, Beta(a, b) by
// `ZigguratNormal.beta` for shapes the bandit sees, and the Box–Muller based
// `nextNormal`/`nextBeta` for comparison. Best of 5 runs of each loop; run on one core:
//   swift build -c release && taskset -c 1 .build/release/beta-microbench
import Dispatch
import SmartStackKit

func measure(_ name: String, _ n: Int, _ body: (Int) -> Double) {
  var best = Double.infinity
  var sink = 0.0
  for _ in 0..<5 {
    let t0 = DispatchTime.now().uptimeNanoseconds
    sink += body(n)
    let t1 = DispatchTime.now().uptimeNanoseconds
    best = min(best, Double(t1 - t0) / Double(n))
  }
  let padded = name + String(repeating: " ", count: max(0, 36 - name.count))
  print(padded, (best * 100).rounded() / 100, "ns", sink.isNaN ? "(NaN!)" : "")
}

@inline(never) func normals(_ z: ZigguratNormal, _ n: Int) -> Double {
  var g = Xoshiro256StarStar(seed: 1)
  var s = 0.0
  for _ in 0..<n { s += z.next(using: &g) }
  return s
}

@inline(never) func betas(_ z: ZigguratNormal, _ a: GammaShape, _ b: GammaShape, _ n: Int) -> Double {
  var g = Xoshiro256StarStar(seed: 1)
  var s = 0.0
  for _ in 0..<n { s += z.beta(a, b, using: &g) }
  return s
}

@inline(never) func betasOverArms(_ z: ZigguratNormal, _ arms: [(GammaShape, GammaShape)], _ n: Int) -> Double {
  var g = Xoshiro256StarStar(seed: 1)
  var s = 0.0
  arms.withUnsafeBufferPointer { arms in
    for k in 0..<n {
      let arm = arms[k % arms.count]
      s += z.beta(arm.0, arm.1, using: &g)
    }
  }
  return s
}

let normal = ZigguratNormal()
let n = 20_000_000
measure("ziggurat normal", n) { normals(normal, $0) }
measure("Box-Muller nextNormal", n / 4) { n in
  var g = Xoshiro256StarStar(seed: 1)
  var s = 0.0
  for _ in 0..<n { s += g.nextNormal() }
  return s
}
for (a, b) in [(1.0, 1.0), (1.0, 9.0), (2.0, 30.0), (5.0, 100.0), (50.0, 500.0)] {
  measure("ziggurat beta(\(a), \(b))", n) { betas(normal, GammaShape(a), GammaShape(b), $0) }
}
// 60 arms (10 instances x 6 buckets) with taps in 0..<20 and misses in 0..<400.
var shapes = Xoshiro256StarStar(seed: 9)
let arms = (0..<60).map { _ in
  (GammaShape(1 + Double(shapes.nextInt(below: 20))), GammaShape(1 + Double(shapes.nextInt(below: 400))))
}
measure("ziggurat beta over 60 arms", n) { betasOverArms(normal, arms, $0) }
measure("ziggurat beta(0.5, 0.5) (log path)", n / 10) { betas(normal, GammaShape(0.5), GammaShape(0.5), $0) }
measure("Box-Muller nextBeta(2, 30)", n / 10) { n in
  var g = Xoshiro256StarStar(seed: 1)
  var s = 0.0
  for _ in 0..<n { s += g.nextBeta(2, 30) }
  return s
}
