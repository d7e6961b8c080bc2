import SmartStackKit
@testable import SmartStackBase
@testable import SmartStackData
@testable import SmartStackEngine
@testable import SmartStackStrategies
@testable import SmartStackWorld
@testable import SmartStackExperiments
@testable import SmartStackCounterfactual
@testable import SmartStackBench

/// A small seeded generator for the property tests (SplitMix64; frozen here so the tests do
/// not depend on the library's own generators).
struct RelevanceTestRandom {
  var state: UInt64

  init(seed: UInt64) { state = seed }

  mutating func next() -> UInt64 {
    state &+= 0x9E37_79B9_7F4A_7C15
    var z = state
    z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
    z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
    return z ^ (z >> 31)
  }

  /// A value in `0..<n` (slightly biased for huge n; fine for tests).
  mutating func below(_ n: Int) -> Int { Int(next() % UInt64(n)) }
}

/// Shorthands for hand-written relevance test data; suites conform to get them (kept out
/// of the test module's global namespace, which other suites share).
protocol RelevanceFixtures {}

extension RelevanceFixtures {
  /// Milliseconds in an hour and a day, for readable test data.
  var hourMs: Int64 { 3_600_000 }
  var dayMs: Int64 { 86_400_000 }

  /// 2026-01-05T00:00:00Z in epoch ms: a Monday, the base date of the hand-written examples.
  var baseMs: Int64 { 1_767_571_200_000 }

  /// `baseMs + hours` as an instant.
  func at(hours: Double) -> Instant {
    Instant(milliseconds: baseMs + Int64((hours * Double(hourMs)).rounded()))
  }

  /// An entry `hours` after the base date with relevance `score`/`durationHours`, or nil
  /// relevance when `score` is nil.
  func entry(_ hours: Double, _ score: Double?, durationHours: Double = 0) -> RelevanceEntry {
    RelevanceEntry(
      date: at(hours: hours),
      relevance: score.map {
        Relevance(
          score: $0, durationMilliseconds: Int64((durationHours * Double(hourMs)).rounded()))
      })
  }
}
