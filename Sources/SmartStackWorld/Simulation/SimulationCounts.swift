import SmartStackBase
import SmartStackData
import SmartStackEngine

/// What a simulation adds to the engine's metrics: how people reacted, and what the
/// apps' timelines cost. Summed over people; written as extra `runs.csv` columns.
public struct SimulationCounts: Sendable, Hashable {
  /// Visits where the person tapped the shown widget they wanted.
  public var taps = 0
  /// Visits where the person opened the wanted app by hand (it was not shown).
  public var manualOpens = 0
  /// Visits where the person swiped the stack to the wanted widget (pinning it).
  public var swipes = 0
  /// Visits with a want the person did not act on (no tap, no swipe, no open).
  public var unacted = 0
  /// Timeline reloads the apps asked for, granted within the budget, refused because the
  /// 24-hour budget was spent, and coalesced with a reload less than 5 minutes earlier.
  public var reloadsRequested = 0
  public var reloadsGranted = 0
  public var reloadsRefused = 0
  public var reloadsCoalesced = 0
  /// Widget Suggestion windows (an instance inserted into the stack, then removed).
  public var suggestionWindows = 0

  @inlinable public init() {}

  @inlinable public static func += (a: inout SimulationCounts, b: SimulationCounts) {
    a.taps += b.taps
    a.manualOpens += b.manualOpens
    a.swipes += b.swipes
    a.unacted += b.unacted
    a.reloadsRequested += b.reloadsRequested
    a.reloadsGranted += b.reloadsGranted
    a.reloadsRefused += b.reloadsRefused
    a.reloadsCoalesced += b.reloadsCoalesced
    a.suggestionWindows += b.suggestionWindows
  }

  /// Column names, in `runs.csv` order after the engine's metrics.
  public static let names = [
    "taps", "manual_opens", "swipes", "unacted_wants", "reloads_requested", "reloads_granted",
    "reloads_refused", "reloads_coalesced", "suggestion_windows",
  ]

  /// Values in `names` order.
  public var values: [Double] {
    [
      taps, manualOpens, swipes, unacted, reloadsRequested, reloadsGranted, reloadsRefused,
      reloadsCoalesced, suggestionWindows,
    ].map(Double.init)
  }
}

extension SimulationCounts {
  /// Adds `person`'s timeline reloads (requested, granted, refused, coalesced).
  @inlinable package mutating func addReloads(of person: SimulatedPerson) {
    reloadsRequested += person.reloads.requested
    reloadsGranted += person.reloads.granted
    reloadsRefused += person.reloads.refused
    reloadsCoalesced += person.reloads.coalesced
  }
}
