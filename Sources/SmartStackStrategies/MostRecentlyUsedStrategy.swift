import SmartStackBase
import SmartStackData
import SmartStackEngine

/// `mru`: most recently used.
///
/// Score of candidate `i` = the time (epoch ms) of the person's latest donation matched
/// to `i` before the visit; never donated = minus infinity. Ties follow the engine's
/// rule (more recent, more donations, kind name).
public struct MostRecentlyUsedStrategy: InstanceScoringStrategy {
  public static let info = StrategyInfo(name: "mru", summary: "the candidate donated most recently")
  public init(parameters: StrategyParameters) {}
  /// Last donations only: a donation rescores the instance it matched.
  @inlinable public var reads: VisitInputs { .donations }
  @inline(__always)
  @inlinable public func score(_ instance: InstanceView) -> Double {
    let last = instance.lastDonation
    return last == Int64.min ? -Double.infinity : Double(last)
  }
  @inlinable public func rule(top: InstanceView?) -> StaticString { "most recent donation" }
}
