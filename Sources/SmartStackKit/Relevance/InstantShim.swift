// TEMPORARY: stands in for Time/Instant.swift until branch `time` is merged.
// Delete this file in the merge commit.
public struct Instant: Hashable, Comparable, Sendable {
  public var milliseconds: Int64
  public init(milliseconds: Int64) { self.milliseconds = milliseconds }
  public init(seconds: Int64) { self.milliseconds = seconds * 1000 }
  public static func < (a: Instant, b: Instant) -> Bool { a.milliseconds < b.milliseconds }
  public static func + (a: Instant, ms: Int64) -> Instant { Instant(milliseconds: a.milliseconds + ms) }
  public static func - (a: Instant, ms: Int64) -> Instant { Instant(milliseconds: a.milliseconds - ms) }
  public static func - (a: Instant, b: Instant) -> Int64 { a.milliseconds - b.milliseconds }
}
