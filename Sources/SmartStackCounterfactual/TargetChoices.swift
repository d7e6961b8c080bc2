import SmartStackBase
import SmartStackData
import SmartStackEngine
import SmartStackStrategies
import SmartStackExperiments

/// What each target strategy would have shown at the visits of an exposure log.
///
/// The targets run through the replay engine over the log's visits, in the log's order
/// per person, with:
/// - the stack: every instance id that appears among a person's candidates, in order of
///   first appearance (each instance's kind is its id unless `kinds` names it, so ties
///   break by that name's byte order, as in `StackFeatures`), always available;
/// - the donations: at each visit with a `target`, one donation of the first target
///   instance at the visit's time (the replay's horizon is 0, so the visit is decided
///   before it is seen). A person whose rows name no target gets one donation of a kind
///   in no stack (`(none)`) at their first visit, so that the replay keeps them.
///
/// A target therefore observes only what the log holds: the visits and what the people
/// wanted. It never sees the taps its own choices would have had, and a learning target
/// (`bandit`) learns, as replay does, that it was tapped whenever its choice was the
/// logged target; a strategy whose features feed on donations sees the logged people's
/// wants, which in a simulation differ from the donations its own display would have
/// caused. See docs/counterfactual.md.
public enum TargetChoices {
  /// The kind written for a person with no target (matches no instance).
  public static let noneKind = "(none)"

  /// The replay plan of `log`'s visits (see the type's definition).
  ///
  /// - Parameter kinds: optional kind name per instance id (for a simulated log, the
  ///   scenario's kinds, so that ties break as they did on-policy); ids it lacks are
  ///   their own kind. Two ids of one kind are told apart by a `#id` suffix.
  ///   - timelines: relevance timelines of the instances (ids as in the log), for targets
  ///     that read relevance (`relevance`, `smart-rotate`); without them such a target
  ///     sees none.
  ///   - context: the people's context changes, for targets that read context
  ///     (`context-mfu`, `context-bandit`); without them such a target sees none.
  /// - Throws: `ReplayError` from the replay's plan.
  public static func plan(
    _ log: ExposureLog, zone: ZoneRules, kinds: [String: String] = [:], timelines: TimelineFile? = nil,
    context: ContextLog? = nil
  ) throws -> ReplayPlan {
    var ids: [String] = []
    var seen: [String: Bool] = [:]
    var donations: [Donation] = []
    var hasTarget: [String: Bool] = [:]
    for e in log.exposures {
      for c in e.candidates where seen[c] == nil {
        seen[c] = true
        ids.append(c)
      }
      if let t = e.targets.first {
        hasTarget[e.person] = true
        donations.append(Donation(timestamp: Instant(milliseconds: e.time), user: e.person, kind: kindName(t, kinds)))
      }
    }
    for person in log.people where hasTarget[person] == nil {
      let first = log.exposures.first { $0.person == person }!
      donations.append(Donation(timestamp: Instant(milliseconds: first.time), user: person, kind: noneKind))
    }
    donations.sort { ($0.timestamp.milliseconds, $0.user) < ($1.timestamp.milliseconds, $1.user) }
    var options = ReplayOptions()
    options.horizonSeconds = 0
    options.zone = zone
    options.timelines = timelines
    options.context = context
    options.visits = .log(VisitLog(file: "exposures", users: log.exposures.map(\.person), times: log.exposures.map(\.time)))
    options.stack = .fixed(
      StackSpec(file: "exposures", instances: ids.map { WidgetInstance(id: $0, kind: kindName($0, kinds)) }))
    return try ReplayPlan(log: DonationLog(donations), options: options)
  }

  /// The kind of instance `id`: `kinds[id]` with `#id` appended (unique per instance, and
  /// ordered by the kind name first), or `id` itself.
  static func kindName(_ id: String, _ kinds: [String: String]) -> String {
    kinds[id].map { $0 + "#" + id } ?? id
  }

  /// The instance id `choice` shows at each exposure of `plan`'s log, in the log's
  /// order (person by person as in `log.exposures`).
  ///
  /// - Throws: `ReplayError` when the replay did not score every logged visit.
  public static func choices(_ choice: StrategyChoice, plan: ReplayPlan, log: ExposureLog) throws -> [String] {
    let recorder = ShownRecorder(personNames: plan.people.map(\.name))
    let (_, extra) = choice.replay(plan, extra: DynamicObserver(recorder))
    let shown = (extra!.base as! ShownRecorder).shown
    var next: [String: Int] = [:]
    var result: [String] = []
    result.reserveCapacity(log.exposures.count)
    for e in log.exposures {
      let k = next[e.person, default: 0]
      guard let list = shown[e.person], k < list.count else {
        throw ReplayError("strategy '\(choice.descriptor.label)' was not asked at every visit of person '\(e.person)'")
      }
      result.append(list[k])
      next[e.person] = k + 1
    }
    return result
  }
}

/// Records the instance id shown at each scored visit, per person name, in visit order
/// (empty id when nothing could be shown).
struct ShownRecorder: OutcomeObserver {
  let personNames: [String]
  var shown: [String: [String]] = [:]
  var ids: [String] = []
  var person = ""

  init(personNames: [String]) { self.personNames = personNames }

  mutating func beginPerson(_ person: Int32, instances: [WidgetInstance]) {
    ids = instances.map(\.id)
    self.person = Int(person) < personNames.count ? personNames[Int(person)] : String(person)
  }

  mutating func observe(

    _ o: VisitOutcome, targets: @autoclosure () -> ArraySlice<Int32>, scores: [Double], features: StackFeatures

  ) {
    shown[person, default: []].append(o.shown >= 0 && Int(o.shown) < ids.count ? ids[Int(o.shown)] : "")
  }
}
