/// Picks a driver's next event from up to seven time-ordered input streams: the one
/// merge rule replay (`Replay.run(_:horizon:session:)`), simulation and the reload
/// simulation share.
///
/// `Stream` names the driver's event classes; its raw values `0..<7` are their fixed
/// order at equal times. The merger holds the time of each stream's next event
/// (`Int64.max`: none, or a class the driver does not use) and **the ordering rule**
/// is exactly:
/// 1. the earliest time first;
/// 2. at equal times, the class with the smaller raw value first;
/// 3. within a class, the stream's own order (the driver advances one stream at a
///    time and sets its next time, so ties within a class keep insertion order).
///
/// The engine's classes, in that order, are: timeline (relevance) entries, outside
/// scores (`--scores`), context changes (`--context`), visits, donations, revealed
/// outcomes (taps before misses)
/// (README "Time order"); a driver
/// that has other classes (suggestion toggles, reload requests) lists them in its own
/// `Stream` enum.
///
/// A driver sets a stream's time whenever that stream advances (`merger[.visit] = …`)
/// and asks `next()` for the event to process; the merger never reads the streams
/// itself. Seven stored `Int64`s, no allocation: a stream the driver never sets stays
/// `Int64.max`, which the optimiser folds away.
///
/// - Complexity: every operation O(1) (at most seven comparisons).
public struct EventMerger<Stream: RawRepresentable>: Sendable where Stream.RawValue == Int {
  /// The next time of the streams with raw values 0 to 6.
  @usableFromInline package var t0 = Int64.max
  @usableFromInline package var t1 = Int64.max
  @usableFromInline package var t2 = Int64.max
  @usableFromInline package var t3 = Int64.max
  @usableFromInline package var t4 = Int64.max
  @usableFromInline package var t5 = Int64.max
  @usableFromInline package var t6 = Int64.max

  /// A merger with no pending event in any stream.
  @inlinable public init() {}

  /// The time of `stream`'s next event; `Int64.max` when it has none.
  ///
  /// - Precondition: `stream.rawValue` is in `0..<7`.
  @inlinable public subscript(stream: Stream) -> Int64 {
    @inline(__always) get {
      switch stream.rawValue {
      case 0: return t0
      case 1: return t1
      case 2: return t2
      case 3: return t3
      case 4: return t4
      case 5: return t5
      case 6: return t6
      default: preconditionFailure("EventMerger: stream raw value \(stream.rawValue) outside 0..<7")
      }
    }
    @inline(__always) set {
      switch stream.rawValue {
      case 0: t0 = newValue
      case 1: t1 = newValue
      case 2: t2 = newValue
      case 3: t3 = newValue
      case 4: t4 = newValue
      case 5: t5 = newValue
      case 6: t6 = newValue
      default: preconditionFailure("EventMerger: stream raw value \(stream.rawValue) outside 0..<7")
      }
    }
  }

  /// The next event by the ordering rule: its stream and time; nil when every stream
  /// is at `Int64.max` (the driver is done).
  @inlinable @inline(__always) public func next() -> (stream: Stream, time: Int64)? {
    let t = min(min(t0, min(t1, t2)), min(min(t3, t4), min(t5, t6)))
    if t == Int64.max { return nil }
    let raw = t0 == t ? 0 : t1 == t ? 1 : t2 == t ? 2 : t3 == t ? 3 : t4 == t ? 4 : t5 == t ? 5 : 6
    guard let stream = Stream(rawValue: raw) else {
      preconditionFailure("EventMerger: no stream with raw value \(raw) was declared but its time was set")
    }
    return (stream, t)
  }
}
