import SmartStackBase
import SmartStackData
import SmartStackEngine

/// `static`: the person's manual stack order; never rotates on its own.
///
/// Score of candidate `i` = `-i` (its position in the stack's manual order), so the
/// first candidate in stack order is always shown. With a stack built from donations
/// (`--stack all`) the manual order is the order of the person's first donation of
/// each kind, so the top is the first kind ever donated.
public struct StaticStrategy: InstanceScoringStrategy {
  public static let info = StrategyInfo(
    name: "static", summary: "the manual stack order: the first candidate is always shown (no rotation)")
  public init(parameters: StrategyParameters) {}
  /// The manual order only: a decision stands until the candidates change.
  @inlinable public var reads: VisitInputs { [] }
  @inline(__always)
  @inlinable public func score(_ instance: InstanceView) -> Double { -Double(instance.index) }
  @inlinable public func rule(top: InstanceView?) -> StaticString { "manual order" }
}
