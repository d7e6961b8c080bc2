import SmartStackBase
import SmartStackData
import SmartStackEngine

/// `mfu`: most frequently used.
///
/// Score of candidate `i` = the number of the person's donations matched to `i` before
/// the visit (all history, no decay).
public struct MostFrequentlyUsedStrategy: InstanceScoringStrategy {
  public static let info = StrategyInfo(name: "mfu", summary: "the candidate with the most earlier donations")
  public init(parameters: StrategyParameters) {}
  /// Donation counts only: a donation rescores the instance it matched.
  @inlinable public var reads: VisitInputs { .donations }
  @inline(__always)
  @inlinable public func score(_ instance: InstanceView) -> Double { Double(instance.donationCount) }
  @inlinable public func rule(top: InstanceView?) -> StaticString { "most donations" }
}
