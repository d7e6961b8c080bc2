import Foundation
import Testing
import SmartStackKit
@testable import SmartStackBase
@testable import SmartStackExperiments
@testable import SmartStackCounterfactual

/// Hostile exposure logs (issue 30 items 8, 16, 19): what would give non-finite numbers,
/// unbounded memory or double counting is refused at its field.
@Suite("Exposure logs refuse what would make estimates meaningless")
struct ExposureLogHardeningTests {
  static let header = "logging_strategy,person,time,candidates,shown,propensity,reward,hit\n"

  @Test func aHexadecimalOrTinyPropensityIsRefused() {
    let hex = ExposureLogReadingTests.problems(Self.header + "x,p,2026-03-02T08:00:00Z,a;b,a,0x1p-3,1,1\n")
    #expect(hex.contains("f.csv:2:32: propensity '0x1p-3' is not a number in (0, 1]"), "\(hex)")
    for tiny in ["5e-324", "1e-300", "0.0000001"] {
      let p = ExposureLogReadingTests.problems(Self.header + "x,p,2026-03-02T08:00:00Z,a;b,a,\(tiny),1,1\n")
      #expect(p.contains("f.csv:2:32: propensity \(tiny) is below the floor of 1e-06"), "\(p)")
    }
    let stated = ExposureLogReadingTests.problems(Self.header + "x,p,2026-03-02T08:00:00Z,a=0x1p-1;b=0.5,a,0.5,1,1\n")
    #expect(stated.contains("candidate probability '0x1p-1' of 'a' is not a number in [0, 1]"), "\(stated)")
  }

  @Test func aCandidateListedTwiceOrARepeatedRowIsRefused() {
    let twice = ExposureLogReadingTests.problems(Self.header + "x,p,2026-03-02T08:00:00Z,a=0.5;a=0.5,a,0.5,1,1\n")
    #expect(twice.contains("f.csv:2:26: candidate 'a' is listed twice"), "\(twice)")
    let row = "x,p,2026-03-02T08:00:00Z,a;b,a,0.5,1,1\n"
    let repeated = ExposureLogReadingTests.problems(Self.header + String(repeating: row, count: 1000))
    #expect(repeated.contains("f.csv:3:5: a second row of person 'p' at the same instant"), "\(repeated)")
  }

  @Test func aRowWithTooManyCandidatesIsRefusedWithoutBuildingThem() {
    let ids = (0..<100_000).map { "w\($0)" }.joined(separator: ";")
    let p = ExposureLogReadingTests.problems(Self.header + "x,p,2026-03-02T08:00:00Z,\(ids),w0,0.5,1,1\n")
    #expect(p.contains("f.csv:2:26: 100000 candidates: a stack holds at most 10 widgets"), "\(p)")
  }

  @Test func noEstimateIsEverNonFinite() {
    var sums = OffPolicySums()
    sums.n = 1
    sums.pdis = .infinity
    #expect(sums.estimate(.pdisWindow) == nil)
    sums.pdis = 0.5
    #expect(sums.estimate(.pdisWindow) == 0.5)
  }
}
