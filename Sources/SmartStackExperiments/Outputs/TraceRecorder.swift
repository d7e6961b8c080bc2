import SmartStackBase
import SmartStackData
import SmartStackEngine
import SmartStackStrategies
import SmartStackWorld

/// An observer that writes one `trace.csv` row per scored visit.
///
/// Columns (`TraceRecorder.header`):
/// - `run_id`: the cell's run id (`source|strategy|replicate`);
/// - `person`: the person's name in the source;
/// - `time`: the visit, ISO 8601 UTC (`2026-03-02T08:00:00Z`, `.mmm` when not whole seconds);
/// - `shown`: the instance id shown after the decision (empty when there was no candidate);
/// - `has_target`: 1 when the person wanted something at this visit, else 0;
/// - `targets`: the stack instances the target matches, ids joined by `;` (empty when the
///   target is outside the stack or there is none);
/// - `target_rank`: 1-based rank of the best target among the candidates, 0 when no target
///   was a candidate, empty without a target;
/// - `rotated`: 1 when the shown instance differs from the previous visit's, else 0;
/// - `rule`: the strategy's name for the rule that decided (e.g. `score`);
/// - `shown_state`: relevance state of the shown instance: `none`, `active`,
///   `suppressed` or `expired`;
/// - `local_time`: `time` as the person read it, with its offset
///   (`2026-03-02T09:00:00+01:00`): in the visit's own UTC offset when it has one (a
///   visit log's `utc_offset` or timestamp offset; the donation's a visit is made from),
///   else in the source's zone (the log's `timezone` or the scenario's zone), as the
///   engine reads the visit's hour and day.
public struct TraceRecorder: OutcomeObserver {
  public static let header = [
    "run_id", "person", "time", "shown", "has_target", "targets", "target_rank", "rotated", "rule",
    "shown_state", "local_time",
  ]

  public let runID: String
  public var personNames: [String] { labels.personNames }
  /// The zone of `local_time` for visits without an offset of their own.
  public let zone: ZoneRules
  /// Per person, each scored visit's own UTC offset in visit order (`UTCOffset.none` for
  /// none), or empty when no visit of theirs has one.
  public let visitOffsets: [UTCOffsetColumn]
  /// The rows so far, after a header row.
  public private(set) var csv = CSVWriter(header: TraceRecorder.header)
  var labels: VisitLabels
  /// The current person's `visitOffsets` and the index of their next visit.
  var offsets = UTCOffsetColumn()
  var visitIndex = 0

  /// A recorder whose `local_time` is read in `zone`; `visitOffsets` gives, per person,
  /// each scored visit's own offset (empty for none).
  public init(runID: String, personNames: [String], zone: ZoneRules = .utc, visitOffsets: [UTCOffsetColumn] = []) {
    self.runID = runID
    labels = VisitLabels(personNames: personNames)
    self.zone = zone
    self.visitOffsets = visitOffsets
  }

  /// A recorder for a replay of `plan`: its people, its zone and its visits' own offsets.
  /// Replay observes every scored visit of the plan once, person by person, in the plan's
  /// visit order, which is how a visit's offset is found.
  public init(runID: String, plan: ReplayPlan) {
    self.init(
      runID: runID, personNames: plan.people.map(\.name), zone: plan.options.zone,
      visitOffsets: plan.people.map(\.visitOffsets))
  }

  public mutating func beginPerson(_ person: Int32, instances: [WidgetInstance]) {
    labels.begin(person, instances: instances)
    let i = Int(person)
    offsets = i >= 0 && i < visitOffsets.count ? visitOffsets[i] : []
    visitIndex = 0
  }

  public mutating func observe(

    _ o: VisitOutcome, targets: @autoclosure () -> ArraySlice<Int32>, scores: [Double], features: StackFeatures

  ) {
    csv.append(runID)
    csv.append(labels.person)
    csv.append(ISO8601.format(Instant(milliseconds: o.time)))
    csv.append(labels.id(o.shown) ?? "")
    csv.append(o.hasTarget ? 1 : 0)
    csv.append(targets().compactMap(labels.id).joined(separator: ";"))
    if o.hasTarget { csv.append(o.targetRank) } else { csv.append("") }
    csv.append(o.rotated ? 1 : 0)
    csv.append("\(o.rule)")
    switch o.shownState {
    case .none: csv.append("none")
    case .active: csv.append("active")
    case .suppressed: csv.append("suppressed")
    case .expired: csv.append("expired")
    }
    let own = visitIndex < offsets.count ? offsets[visitIndex] : UTCOffset.none
    visitIndex += 1
    csv.append(
      own == UTCOffset.none
        ? ISO8601.formatLocal(Instant(milliseconds: o.time), zone: zone)
        : ISO8601.formatLocal(Instant(milliseconds: o.time), offsetSeconds: Int(own)))
    csv.endRow()
  }
}
