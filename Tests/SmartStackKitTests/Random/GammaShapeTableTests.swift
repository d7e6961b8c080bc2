import Testing

import SmartStackKit
@testable import SmartStackBase
@testable import SmartStackData
@testable import SmartStackEngine
@testable import SmartStackStrategies
@testable import SmartStackWorld
@testable import SmartStackExperiments
@testable import SmartStackCounterfactual
@testable import SmartStackBench

@Suite("Gamma shape table")
struct GammaShapeTableTests {
  /// Every entry, inside the table and beyond it, has the bits of computing the shape,
  /// for priors above and below 1 (boosted shapes) and fractional ones.
  @Test(arguments: [1.0, 2.0, 0.5, 0.001, 0.3, 1.7, 1000.0])
  func tableGivesTheComputedShape(base: Double) {
    let table = GammaShapeTable(base: base, count: 64)
    #expect(table.count == 64 && table.base == base)
    for n in 0..<200 {
      let computed = GammaShape(base + Double(n))
      let read = table[n]
      #expect(read.shape.bitPattern == computed.shape.bitPattern, "base \(base), n \(n)")
      #expect(read.d.bitPattern == computed.d.bitPattern, "base \(base), n \(n)")
      #expect(read.c.bitPattern == computed.c.bitPattern, "base \(base), n \(n)")
      #expect(read.inverseShape.bitPattern == computed.inverseShape.bitPattern, "base \(base), n \(n)")
    }
  }

  /// A count of whole outcomes kept as a `Double` and incremented (the bandit's counts
  /// before the table) gives the same shape as the table's integer index.
  @Test func incrementedDoubleCountsMatchTheIndex() {
    let table = GammaShapeTable(base: 0.7, count: 5000)
    var count = 0.0
    for n in 1..<6000 {
      count += 1
      #expect(table[n] == GammaShape(0.7 + count), "n \(n)")
    }
  }

  /// An empty table computes every shape.
  @Test func emptyTableComputes() {
    let table = GammaShapeTable(base: 3, count: 0)
    #expect(table[0] == GammaShape(3) && table[10] == GammaShape(13))
  }
}
