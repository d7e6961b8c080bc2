import SmartStackBase
import SmartStackData
import SmartStackEngine

/// Writes, per visit, what the stack showed and why: the answer to "why did X rotate?"
/// that Apple never gives.
///
/// Columns of `explain.csv`: `strategy, person, time, shown, previous, rotated, rule,
/// target, hit, top` where `rule` is the strategy's reason, or the stack rule that decided
/// (`manual swipe pin`, `smart rotate off`, `stack rotation limit`,
/// `suppressed: not rotated to`; see `StackRules`), `target` the wanted instance ids joined
/// by `;` (empty for none; `(not in stack)` for a want outside the stack), and `top` the
/// strategy's three best candidates in its own order as `id=score` joined by `;` (scores
/// in shortest round-trip form, as the strategy gave them: a stack rule changes what is
/// shown, never a score, so under a rule `shown` may differ from the first of `top`), and
/// `local_time` the visit in the scenario's zone with its offset
/// (`2026-03-02T09:00:00+01:00`; `time` is UTC).
public struct ExplainObserver: OutcomeObserver {
  public let strategy: String
  let personNames: [String]
  let zone: ZoneRules
  var instances: [WidgetInstance] = []
  var order: [Int] = []
  public private(set) var csv = CSVWriter(header: [
    "strategy", "person", "time", "shown", "previous", "rotated", "rule", "target", "hit", "top", "local_time",
  ])

  public init(strategy: String, personNames: [String], zone: ZoneRules = .utc) {
    self.strategy = strategy
    self.personNames = personNames
    self.zone = zone
  }

  public mutating func beginPerson(_ person: Int32, instances: [WidgetInstance]) {
    self.instances = instances
  }

  public mutating func observe(

    _ o: VisitOutcome, targets: @autoclosure () -> ArraySlice<Int32>, scores: [Double], features: StackFeatures

  ) {
    order.removeAll(keepingCapacity: true)
    for i in 0..<instances.count where features._available[i] { order.append(i) }
    order.sort { features.precedes($0, $1, scores: scores) }
    let top = order.prefix(3).map { "\(instances[$0].id)=\(NumberFormat.format(scores[$0]))" }
    let targets = targets()
    let target: String =
      !o.hasTarget ? "" : targets.isEmpty ? "(not in stack)" : targets.map { instances[Int($0)].id }.joined(separator: ";")
    let name = Int(o.person) < personNames.count ? personNames[Int(o.person)] : String(o.person)
    csv.appendRow([
      strategy, name, ISO8601.format(Instant(milliseconds: o.time)),
      o.shown >= 0 ? instances[Int(o.shown)].id : "", o.previous >= 0 ? instances[Int(o.previous)].id : "",
      o.rotated ? "1" : "0", "\(o.rule)", target, o.isHit ? "1" : "0", top.joined(separator: ";"),
      ISO8601.formatLocal(Instant(milliseconds: o.time), zone: zone),
    ])
  }
}
