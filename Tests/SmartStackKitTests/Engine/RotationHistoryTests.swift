import Testing

@testable import SmartStackBase
@testable import SmartStackEngine

/// The stack's rotations of the last 24 hours (`RotationHistory`): what the rotation
/// limit and `smart-rotate` count.
@Suite("Rotation history")
struct RotationHistoryTests {
  /// Over seeded ascending streams of rotation times (gaps of 0 to 40 minutes, long
  /// enough to forget and compact), `count(after:)` for any window of at most 24 hours
  /// ending at the latest rotation equals a count over every rotation ever recorded.
  @Test func countsEqualABruteForceCountOverEveryRotation() {
    for seed in UInt64(1)...20 {
      var rng = Xoshiro256StarStar(seed: seed)
      var history = RotationHistory()
      var all: [Int64] = []
      var t: Int64 = 1_700_000_000_000
      for step in 0..<6_000 {
        t += Int64(rng.next() % 2_400_000)
        history.record(t)
        all.append(t)
        if step % 97 == 0 {
          for window in [Int64(0), 60_000, 3_600_000, 86_400_000] {
            let after = t - window
            #expect(history.count(after: after) == all.filter { $0 > after }.count, "seed \(seed) step \(step)")
          }
          #expect(history.latest == t)
        }
      }
      #expect(history.times.count - history.head < 6_000, "seed \(seed): old rotations were never forgotten")
    }
  }

  @Test func anEmptyHistoryCountsNothing() {
    let history = RotationHistory()
    #expect(history.count(after: .min) == 0 && history.latest == nil)
  }
}
