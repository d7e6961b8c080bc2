import SmartStackBase
import SmartStackData
import SmartStackEngine

/// What happened to one widget instance's reload requests and timeline entries over a
/// run (reference rules 22-26, Q9).
///
/// Every request ends in exactly one of `granted`, `refused`, `coalesced` or `pending`:
/// `requested == granted + refused + coalesced + pending`.
public struct ReloadCounts: Sendable, Hashable {
  /// Reload requests made before the end of the run: the first reload when the widget
  /// appears, reloads due by the reload policy (including retries after a refusal),
  /// and app-driven ones (on an event, on opening the app).
  public var requested = 0
  /// Reloads performed (budgeted and free).
  public var granted = 0
  /// Granted reloads that cost nothing because the app was in the foreground
  /// (reference rule 25); `granted - free` were counted against the budget.
  public var free = 0
  /// Requests refused because the instance had used its 24-hour budget.
  public var refused = 0
  /// Requests merged into another reload: made while a delayed one was waiting, or at
  /// the very instant of a performed reload.
  public var coalesced = 0
  /// Requests that came less than the spacing (5 minutes) after the last performed
  /// reload and so waited until it had passed; each is then granted or refused (or
  /// still pending at the end), so `delayed` overlaps those counts.
  public var delayed = 0
  /// Delayed requests still waiting when the run ended.
  public var pending = 0
  /// Timeline entries delivered to the stack (taking effect before the end).
  public var entriesDelivered = 0
  /// Intended entries dated before the end that never reached the stack: superseded or
  /// expired before any reload delivered them, or not delivered by the end.
  public var entriesDropped = 0

  public init() {}

  /// Field-by-field sum.
  public static func + (a: ReloadCounts, b: ReloadCounts) -> ReloadCounts {
    var sum = a
    sum.requested &+= b.requested
    sum.granted &+= b.granted
    sum.free &+= b.free
    sum.refused &+= b.refused
    sum.coalesced &+= b.coalesced
    sum.delayed &+= b.delayed
    sum.pending &+= b.pending
    sum.entriesDelivered &+= b.entriesDelivered
    sum.entriesDropped &+= b.entriesDropped
    return sum
  }

  public static func += (a: inout ReloadCounts, b: ReloadCounts) { a = a + b }
}
