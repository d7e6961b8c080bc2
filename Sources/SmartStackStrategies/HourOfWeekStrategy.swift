import Foundation
import SmartStackBase
import SmartStackData
import SmartStackEngine

/// `hour-of-week`: what the person uses at this hour on this weekday, optionally with
/// recent donations weighing more.
///
/// Score of candidate `i` = Σ over the person's earlier donations `d` matched to `i`
/// whose local hour of week equals the visit's of `2^(-(now - t_d) / H)`, where `H` is
/// `half-life-days` in milliseconds. `half-life-days = 0` (the default) means no decay:
/// the score is the plain count.
///
/// - Complexity: O(1) per donation and per candidate at a visit; memory O(n × 168).
public struct HourOfWeekStrategy: InstanceScoringStrategy {
  public static let info = StrategyInfo(
    name: "hour-of-week", summary: "the most earlier donations in the visit's local hour of week, optionally decayed",
    parameters: [
      StrategyParameterSpec(
        "half-life-days", default: 0, range: 0...3650,
        help: "exponential decay half-life in days; 0 = no decay")
    ])
  @usableFromInline let halfLife: Double
  /// With decay only: per instance and hour of week (index `i * 168 + hourOfWeek`), the
  /// decayed count as of `updated`, and when it was last updated (epoch ms). nil
  /// without decay, so that copying and comparing the strategy (what the engine does
  /// around each event) touches no array.
  @usableFromInline var decay: Decay?

  @usableFromInline struct Decay: Equatable, Sendable {
    @usableFromInline var weight: [Double]
    @usableFromInline var updated: [Int64]
    @inlinable init(weight: [Double], updated: [Int64]) {
      self.weight = weight
      self.updated = updated
    }
    @inlinable static func == (a: Decay, b: Decay) -> Bool { a.weight == b.weight && a.updated == b.updated }
  }

  /// Memberwise, as the synthesised `==` would be, but inlinable: the engine compares
  /// the strategy around each event (`InstanceScoringStrategy`), from another module.
  @inlinable public static func == (a: Self, b: Self) -> Bool { a.halfLife == b.halfLife && a.decay == b.decay }

  public init(parameters: StrategyParameters) {
    halfLife = parameters["half-life-days"] * 86_400_000
  }

  /// Without decay, donation counts of the visit's local hour of week; with decay, the
  /// strategy's own weights, which change with `now`, so at every visit.
  @inlinable public var reads: VisitInputs { halfLife > 0 ? [.hourOfWeek, .now] : [.donations, .hourOfWeek] }

  public mutating func begin(_ setup: StrategySetup) {
    guard halfLife > 0 else { return }
    decay = Decay(
      weight: Array(repeating: 0, count: setup.instanceCount * 168),
      updated: Array(repeating: 0, count: setup.instanceCount * 168))
  }

  @inlinable public mutating func observe(_ event: ObservedEvent, context: StackContext) {
    guard halfLife > 0, case .donation(_, let instances) = event, var d = decay else { return }
    decay = nil  // `d` is now the only reference: updated in place
    for i in instances {
      let k = Int(i) * 168 + context.hourOfWeek
      d.weight[k] = decayed(d, k, to: context.now) + 1
      d.updated[k] = context.now
    }
    decay = d
  }

  @inlinable @inline(__always) func decayed(_ d: Decay, _ k: Int, to now: Int64) -> Double {
    d.weight[k] == 0 ? 0 : d.weight[k] * exp2(-Double(now - d.updated[k]) / halfLife)
  }

  @inline(__always)
  @inlinable public func score(_ instance: InstanceView) -> Double {
    if let decay { return decayed(decay, instance.index * 168 + instance.hourOfWeek, to: instance.now) }
    return Double(instance.donationsThisHourOfWeek)
  }
  @inlinable public func rule(top: InstanceView?) -> StaticString { "donations this hour of week" }
}
