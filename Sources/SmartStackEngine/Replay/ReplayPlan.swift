import SmartStackBase
import SmartStackData

/// Everything a replay needs per person, computed once and shared by every strategy:
/// the stack, donations with their matched instances, visits with their targets, and
/// relevance entries. Strategies then differ only in what they decide.
public struct ReplayPlan: Sendable {
  /// One person's replay input.
  public struct Person: Sendable {
    /// The person's name in the log.
    public var name: String
    /// The stack's instances, in manual order.
    public var instances: [WidgetInstance]
    /// True when every instance is a candidate from the start (fixed and top:N stacks);
    /// false when an instance becomes one at the person's first donation of it (`all`).
    public var alwaysAvailable: Bool
    /// Donation times (epoch ms, ascending) and log kind ids.
    public var donationTimes: [Int64] = []
    public var donationKinds: [Int32] = []
    /// Matched instances of donation `d`: `matches[matchStart[d]..<matchStart[d + 1]]`.
    public var matchStart: [Int32] = [0]
    public var matches: [Int32] = []
    /// Scored visit times (ascending) and, per visit, the person-local index of the
    /// donation that is its target, or -1.
    public var visitTimes: [Int64] = []
    public var visitTarget: [Int32] = []
    /// Relevance entries for this stack's instances, in processing order.
    public var entryInstance: [Int32] = []
    public var entries: [RelevanceEntry] = []
    /// Outside score events (`ReplayOptions.scores`), in processing order: by time,
    /// ties in file order, a row naming a kind giving one event per instance of that
    /// kind in stack order. Event `k` sets instance `scoreInstance[k]`'s outside score
    /// to `scoreValues[k]` at `scoreTimes[k]` (`StackSession.outsideScore`); all three
    /// are empty without a score file.
    public var scoreTimes: [Int64] = []
    public var scoreInstance: [Int32] = []
    public var scoreValues: [Double] = []
    /// Context changes (`ReplayOptions.context`), in time order; empty without a context
    /// file or when the file has no row of this person.
    public var context = ContextEvents()
    /// Each donation's and each scored visit's own UTC offset (seconds east of UTC, or
    /// `UTCOffset.none` for the zone); both empty when neither the log nor the visits
    /// have offsets. A visit made from donations (`.donations`, `.sessions`) has the
    /// offset of the donation it was made from. Stored as runs of equal offsets
    /// (`UTCOffsetColumn`): a person's month is one to three runs, not 4 bytes a row.
    public var donationOffsets = UTCOffsetColumn()
    public var visitOffsets = UTCOffsetColumn()
    /// The memberwise initialiser, for the engine's inlinable code.
    @usableFromInline package init(name: String, instances: [WidgetInstance], alwaysAvailable: Bool, donationTimes: [Int64] = [], donationKinds: [Int32] = [], matchStart: [Int32] = [0], matches: [Int32] = [], visitTimes: [Int64] = [], visitTarget: [Int32] = [], entryInstance: [Int32] = [], entries: [RelevanceEntry] = []) {
      self.name = name
      self.instances = instances
      self.alwaysAvailable = alwaysAvailable
      self.donationTimes = donationTimes
      self.donationKinds = donationKinds
      self.matchStart = matchStart
      self.matches = matches
      self.visitTimes = visitTimes
      self.visitTarget = visitTarget
      self.entryInstance = entryInstance
      self.entries = entries
    }

    /// True when some donation or visit has its own UTC offset: replay then sets the
    /// clock's offset at every donation and visit (`StackSession.setRowOffset(_:)`).
    @inlinable public var hasRowOffsets: Bool { !donationOffsets.isEmpty || !visitOffsets.isEmpty }

    @inlinable @inline(__always) public func matched(_ d: Int) -> ArraySlice<Int32> {
      matches[Int(matchStart[d])..<Int(matchStart[d + 1])]
    }
  }

  public var people: [Person]
  /// The index of `people[0]` among the people of the whole plan: a block of the plan
  /// (`block(_:)`) keeps each person's index, which seeds the person's strategy and
  /// numbers the person for observers, so a block replays its people exactly as the whole
  /// plan does. 0 for a whole plan.
  public internal(set) var firstPersonIndex = 0
  /// True for a block of a plan (`block(_:)`): its metrics are joined with the other
  /// blocks' afterwards, so a run of it keeps each person-day as it is counted.
  public internal(set) var isBlock = false
  /// Things the user should know that are not errors (ignored visit rows, timeline ids
  /// that match nothing), in a fixed order.
  public var notes: [String]
  public var options: ReplayOptions
  /// Statistics of the input, for manifests and summaries.
  public var donations: Int
  public var firstInstant: Int64?
  public var lastInstant: Int64?

  /// Builds the plan.
  ///
  /// - Throws: `ReplayError` when the options contradict the input (e.g. `top:N`
  ///   without a warm-up, timeline ids that name no instance of a fixed stack).
  /// - Complexity: O(D + V + E·P + F) for D donations, V visits, E entries of every
  ///   person's timelines, P people and F entries of one person's timelines (`user`), plus
  ///   the matching cost of each distinct (kind, intent, parameters) triple once.
  public init(log: DonationLog, options: consuming ReplayOptions) throws {
    // The visits are taken out of the options first, so that when the caller gave its
    // copy up (`consuming`) the plan alone holds a visit log and lets each chunk of it go
    // once spread (`addVisits`).
    let visits = options.visits
    options.visits = .donations
    try self.init(donationsOf: log, options: options)
    addVisits(consume visits)
  }

  /// The plan without visits: every person's stack, donations and their matches,
  /// relevance entries, outside scores and context, with no visit yet
  /// (`options.visits` is ignored, and `.donations` until `addVisits`). A command that reads
  /// a big visit log builds this first, lets go of the donation log, then reads the visit
  /// log and adds it (`addVisits`), so the two logs are never held at once.
  ///
  /// - Throws: `ReplayError`, as `init(log:options:)`.
  /// - Complexity: O(D + E·P + F) (see `init(log:options:)`).
  package init(donationsOf log: DonationLog, options: consuming ReplayOptions) throws {
    options.visits = .donations
    self.options = options
    donations = log.count
    firstInstant = log.count > 0 ? log.timestamps[0] : nil
    lastInstant = log.count > 0 ? log.timestamps[log.count - 1] : nil
    var notes: [String] = []

    if case .top(let n) = options.stack {
      guard n > 0 else { throw ReplayError("--stack top:N needs N >= 1") }
      guard options.warmupDays > 0 else {
        throw ReplayError("--stack top:\(n) chooses each person's kinds from a warm-up: give --warmup-days D > 0")
      }
    }

    let userCount = log.userNames.count
    // Fixed stacks: the matched instances of each distinct donation signature, once.
    var matcher: DonationMatcher? = nil
    if case .fixed(let spec) = options.stack {
      matcher = DonationMatcher(log: log, instances: spec.instances, catalog: spec.catalog)
    }

    // Relevance entries in processing order: by date, ties in file order. Every
    // person's in `timelineEntries`; one person's (`user`) in `personalEntries[user]`
    // (only looked up, never iterated).
    typealias TimelineEntry = (id: String, entry: RelevanceEntry, order: Int)
    var timelineEntries: [TimelineEntry] = []
    var personalEntries: [String: [TimelineEntry]] = [:]
    if let timelines = options.timelines {
      var order = 0
      var absentUsers: [String] = []
      for t in timelines.instances {
        for e in t.entries {
          if let user = t.user {
            personalEntries[user, default: []].append((t.id, e, order))
          } else {
            timelineEntries.append((t.id, e, order))
          }
          order += 1
        }
        if let user = t.user, log.userNames.id(of: user) == nil, !absentUsers.contains(user) {
          absentUsers.append(user)
        }
      }
      timelineEntries.sort { ($0.entry.date, $0.order) < ($1.entry.date, $1.order) }
      // Each list is sorted by itself: the keys' order reaches nothing.
      for user in personalEntries.keys {
        personalEntries[user]!.sort { ($0.entry.date, $0.order) < ($1.entry.date, $1.order) }
      }
      if !absentUsers.isEmpty {
        notes.append(
          "the timelines of \(absentUsers.count) user(s) with no donation in the log are unused (e.g. "
            + absentUsers.prefix(3).map { "'\($0)'" }.joined(separator: ", ") + ")")
      }
      switch options.stack {
      case .fixed(let spec):
        for t in timelines.instances where !spec.instances.contains(where: { $0.id == t.id }) {
          throw ReplayError(
            "timeline instance '\(t.id)' is not in the stack \(spec.file) (instances: "
              + spec.instances.map(\.id).joined(separator: ", ") + ")")
        }
      case .all, .top:
        for t in timelines.instances where log.kindNames.id(of: t.id) == nil {
          notes.append("timeline instance '\(t.id)' names no kind of the log; its entries are unused")
        }
      }
    }

    // Outside scores: every row names a person of the log and an instance (or kind) of
    // the stack, else a located error; then each person's rows.
    var contextEvents: [String: ContextEvents] = [:]
    if let context = options.context {
      contextEvents = try Self.checkedContextEvents(context, log: log)
    }
    var scoreRows: [String: [Int]] = [:]
    if let scores = options.scores {
      scoreRows = try Self.checkedScoreRows(scores, log: log, stack: options.stack)
    }

    let warmup = InputLimits.milliseconds(options.warmupDays * 86_400_000)
    // A person's part of the plan reads only the shared inputs above, never written from
    // here on: people are built in blocks on every core (`ParallelMap`) and joined in
    // person order, so the plan, and the first error, are those of one pass.
    let personAt = { (u: Int) throws(ReplayError) -> Person? in
      let rows = log.rows(ofUser: Int32(u))
      guard let firstRow = rows.first else { return nil }
      let first = log.timestamps[Int(firstRow)]
      var p = Person(name: log.userNames[Int32(u)], instances: [], alwaysAvailable: true)

      // The donations, each column gathered in a loop of its own: a person's rows lie far
      // apart in the log, and a loop that does nothing else keeps many of those loads in
      // flight (one loop doing all of a row's work waited on nearly every row's timestamp).
      // The stack below reads the person's own columns, not the log again.
      p.donationTimes = rows.map { log.timestamps[Int($0)] }
      if !log.utcOffsets.isEmpty {
        for r in rows { p.donationOffsets.append(log.utcOffsets[Int(r)]) }
      }
      p.donationKinds = rows.map { log.kinds[Int($0)] }

      // The stack, and the kind -> instance map for kind-based stacks.
      var instanceOfKind: [Int32] = []
      switch options.stack {
      case .fixed(let spec):
        p.instances = spec.instances
      case .all:
        p.alwaysAvailable = false
        instanceOfKind = Array(repeating: -1, count: log.kindNames.count)
        for kind in p.donationKinds {
          let k = Int(kind)
          if instanceOfKind[k] < 0 {
            instanceOfKind[k] = Int32(p.instances.count)
            let name = log.kindNames[Int32(k)]
            p.instances.append(WidgetInstance(id: name, kind: name))
          }
        }
        if p.instances.count > StackSpec.maximumInstances {
          throw ReplayError(
            "--stack all: person '\(p.name)' donates \(p.instances.count) kinds, more than the "
              + "\(StackSpec.maximumInstances) widgets a stack holds; use --stack top:\(StackSpec.maximumInstances) "
              + "with --warmup-days (the most donated kinds of the warm-up) or a stack file")
        }
      case .top(let n):
        var count = Array(repeating: 0, count: log.kindNames.count)
        var last = Array(repeating: Int64.min, count: log.kindNames.count)
        var seen: [Int] = []
        for (kind, time) in zip(p.donationKinds, p.donationTimes) where time < first + warmup {
          let k = Int(kind)
          if count[k] == 0 { seen.append(k) }
          count[k] += 1
          last[k] = time
        }
        seen.sort {
          if count[$0] != count[$1] { return count[$0] > count[$1] }
          if last[$0] != last[$1] { return last[$0] > last[$1] }
          return Array(log.kindNames[Int32($0)].utf8).lexicographicallyPrecedes(Array(log.kindNames[Int32($1)].utf8))
        }
        instanceOfKind = Array(repeating: -1, count: log.kindNames.count)
        for k in seen.prefix(n) {
          instanceOfKind[k] = Int32(p.instances.count)
          let name = log.kindNames[Int32(k)]
          p.instances.append(WidgetInstance(id: name, kind: name))
        }
      }

      // Their matches (a kind stack matches at most one instance a donation; a matcher's
      // rows may match more and grow `matches` past its room).
      p.matchStart.reserveCapacity(rows.count + 1)
      p.matches.reserveCapacity(rows.count)
      for (k, r) in rows.enumerated() {
        if let matcher {
          p.matches.append(contentsOf: matcher.instances(matching: Int(r)))
        } else {
          let m = instanceOfKind[Int(p.donationKinds[k])]
          if m >= 0 { p.matches.append(m) }
        }
        p.matchStart.append(Int32(p.matches.count))
      }

      // Relevance entries of this stack's instances: every person's merged with this
      // person's own, by date, ties in file order.
      let own = personalEntries[p.name] ?? []
      var a = 0
      var b = 0
      while a < timelineEntries.count || b < own.count {
        let next: TimelineEntry
        if b == own.count
          || (a < timelineEntries.count
            && (timelineEntries[a].entry.date, timelineEntries[a].order) < (own[b].entry.date, own[b].order))
        {
          next = timelineEntries[a]
          a += 1
        } else {
          next = own[b]
          b += 1
        }
        if let i = p.instances.firstIndex(where: { $0.id == next.id }) {
          p.entryInstance.append(Int32(i))
          p.entries.append(next.entry)
        }
      }
      if let scores = options.scores {
        Self.addScoreEvents(scores, rows: scoreRows[p.name] ?? [], to: &p)
      }
      if let events = contextEvents[p.name] { p.context = events }
      return p
    }
    let blocks = ParallelMap.map(ParallelMap.blocks(count: userCount, parts: 4 * ParallelMap.partCount)) {
      block -> Result<[Person], ReplayError> in
      var built: [Person] = []
      for u in block {
        do throws(ReplayError) {
          if let p = try personAt(u) { built.append(p) }
        } catch {
          return .failure(error)
        }
      }
      return .success(built)
    }
    var people: [Person] = []
    people.reserveCapacity(userCount)
    for block in blocks { people += try block.get() }
    self.people = people
    self.notes = notes
  }

  /// The plan of the people at `range` of `people` (indices into this plan's `people`),
  /// each keeping its index in the whole plan (`firstPersonIndex`). O(range.count): the
  /// people's arrays are shared, not copied.
  public func block(_ range: Range<Int>) -> ReplayPlan {
    var block = self
    block.people = Array(people[range])
    block.firstPersonIndex = firstPersonIndex + range.lowerBound
    block.isBlock = true
    return block
  }

  /// Total scored visits over all people.
  public var visitCount: Int { people.reduce(0) { $0 + $1.visitTimes.count } }
}

/// Replay options that contradict the input.
public struct ReplayError: Error, Sendable, CustomStringConvertible {
  public var description: String
  public init(_ description: String) { self.description = description }
}
