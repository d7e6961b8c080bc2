import SmartStackBase
import SmartStackData
import SmartStackEngine

/// `hour-of-day`: what the person uses at this hour.
///
/// Score of candidate `i` = the number of the person's earlier donations matched to `i`
/// whose local hour of day (in the person's time zone) equals the visit's local hour.
public struct HourOfDayStrategy: InstanceScoringStrategy {
  public static let info = StrategyInfo(
    name: "hour-of-day", summary: "the candidate with the most earlier donations in the visit's local hour")
  public init(parameters: StrategyParameters) {}
  /// Donation counts of the visit's local hour.
  @inlinable public var reads: VisitInputs { [.donations, .hourOfDay] }
  @inline(__always)
  @inlinable public func score(_ instance: InstanceView) -> Double {
    Double(instance.donationsThisHourOfDay)
  }
  @inlinable public func rule(top: InstanceView?) -> StaticString { "donations this hour of day" }
}
