import SmartStackBase
import SmartStackData
import SmartStackEngine

/// Collects a simulation's donations, visits and delivered timeline entries and writes
/// them in the public formats, so a simulated world can be replayed with `smartstack
/// replay`.
///
/// Donations are placed at the instant of the visit that caused them; replaying the
/// emitted logs with `--visits VISITS.csv --stack STACK.json --horizon 0` therefore gives
/// every visit the same target as in the simulation (whenever the person acted on the
/// want). With `--timelines TIMELINES.json` as well, every person's stack receives the
/// same relevance entries, in the same order, as in the simulation. Memory:
/// O(donations + visits + entries) of the whole run.
public struct LogEmitter: Sendable {
  public private(set) var donations: [Donation] = []
  public private(set) var visitUsers: [String] = []
  public private(set) var visitTimes: [Int64] = []
  /// Per person (in simulation order) and stack instance (in stack order), the entries
  /// its reloads delivered, as one person's timelines (`user` set).
  public private(set) var timelines = TimelineFile(instances: [])
  /// Per element of `timelines.instances`, true when its instance is in the person's
  /// stack (always, unless `recordsWorld`).
  public private(set) var timelineInStack: [Bool] = []
  /// When true (rule replay's sidecar), `timelines` also hold the suggested instances'
  /// entries and `suggestionWindows` each person's windows; `--emit-log` leaves it off.
  public var recordsWorld = false
  /// Every person's context changes (in simulation order, each person's in time order);
  /// empty when the scenario has no context.
  public private(set) var context = ContextLog(file: "context.csv")
  /// Per person (in simulation order), the suggestion windows (`recordsWorld` only).
  public private(set) var suggestionWindows: [(person: String, windows: [SuggestionWindow])] = []

  public init() {}

  /// An emitter that records the world as well (`recordsWorld`).
  public init(recordsWorld: Bool) { self.recordsWorld = recordsWorld }

  /// Records `person`'s suggestion windows (`recordsWorld` only).
  public mutating func suggestionWindows(person: String, _ windows: [SuggestionWindow]) {
    if recordsWorld { suggestionWindows.append((person, windows)) }
  }

  /// Records the timeline entries delivered to `person`'s stack: `entries[k]` belongs to
  /// `instances[entryInstance[k]]`, in processing order (by date, then instance, then
  /// the order intended). `instances[0..<stackCount]` are the person's stack; the
  /// instances after them (suggested widgets, which are not in the emitted stack) are
  /// recorded only when `recordsWorld`, otherwise their entries are left out. An
  /// instance that received no entry gets no timeline.
  ///
  /// Replay processes entries by date, ties in file order; within one date this file
  /// lists instance `i`'s entries before instance `j > i`'s, each in delivered order, so
  /// the replayed order is the simulation's.
  public mutating func timelines(
    person: String, instances: ArraySlice<WidgetInstance>, stackCount: Int, entryInstance: [Int32],
    entries: [RelevanceEntry]
  ) {
    let recorded = recordsWorld ? instances.count : min(stackCount, instances.count)
    var perInstance = Array(repeating: [RelevanceEntry](), count: recorded)
    for (i, entry) in zip(entryInstance, entries) where Int(i) < recorded {
      perInstance[Int(i)].append(entry)
    }
    for (k, (instance, entries)) in zip(instances, perInstance).enumerated() where !entries.isEmpty {
      timelines.instances.append(TimelineFile.Instance(id: instance.id, kind: instance.kind, entries: entries, user: person))
      timelineInStack.append(k < stackCount)
    }
  }

  /// `timelines` without the suggested widgets' (`recordsWorld`): exactly what an
  /// emitter with `recordsWorld` off records of the same run, the stack's timelines that
  /// `--emit-log` writes.
  public var stackTimelines: TimelineFile {
    guard recordsWorld else { return timelines }
    return TimelineFile(instances: zip(timelines.instances, timelineInStack).filter(\.1).map(\.0))
  }

  /// Records `person`'s context changes (`SimulatedPerson.context`), with no UTC offsets
  /// of their own: the scenario's zone gives local times.
  public mutating func context(person: String, _ changes: [ContextChange]) {
    for change in changes {
      context.users.append(person)
      context.times.append(change.time)
      context.signals.append(change.signal)
      context.values.append(change.value)
      context.userPositions.append(TextPosition(line: 1, column: 1))
    }
  }

  public mutating func visit(person: String, at time: Int64) {
    visitUsers.append(person)
    visitTimes.append(time)
  }

  public mutating func donation(_ donation: Donation) {
    donations.append(donation)
  }

  /// The donation log (rows in time order, ties in emission order).
  public var donationLog: DonationLog { DonationLog(donations) }

  /// The visit log as CSV `timestamp,user` (UTC instants), in time order, ties in
  /// emission order.
  public var visitLogCSV: String {
    var csv = CSVWriter(header: ["timestamp", "user"])
    let order = visitTimes.indices.sorted { (visitTimes[$0], $0) < (visitTimes[$1], $1) }
    for i in order {
      csv.appendRow([ISO8601.format(Instant(milliseconds: visitTimes[i])), visitUsers[i]])
    }
    return csv.text
  }
}
