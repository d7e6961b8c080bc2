import SmartStackBase
import SmartStackData

extension ReplayPlan {
  /// Gives every person their visits (`Person.visitTimes`, `visitOffsets`) and each visit
  /// its target (`visitTarget`), made as `visits` says: at the person's donations, at the
  /// first donation of each session, or from a visit log's rows. Visits before the
  /// person's warm-up ends, and outside a time split's scored window, are dropped.
  /// Sets `options.visits` (a visit log's file only: the plan keeps its rows per person)
  /// and appends a note when the visit log has rows of people with no donation.
  ///
  /// A plan from `init(donationsOf:options:)` gets its visits here once; a visit log
  /// given up by the caller (`consuming`) is let go of chunk by chunk (`VisitChunk`) as
  /// it is spread over the people, so its rows and the people's visits are never all held
  /// at once.
  ///
  /// - Complexity: O(V + D) for V visit rows and D donations, plus O(v log v) for a
  ///   person whose v visits are not in time order.
  package mutating func addVisits(_ visits: consuming ReplayOptions.Visits) {
    let mode = visits.mode
    var timesOf: [[Int64]] = []
    var offsetsOf: [UTCOffsetColumn] = []
    if case .log(var visitLog) = visits {
      visits = .donations
      options.visits = .log(VisitLog(file: visitLog.file, users: [], times: []))
      let note: String?
      (timesOf, offsetsOf, note) = spread(&visitLog)
      if let note { notes.append(note) }
    } else {
      options.visits = visits
    }
    addVisits(mode: mode, timesByPerson: timesOf, offsetsByPerson: offsetsOf)
  }

  /// `addVisits(_:)` for a visit log already spread over this plan's people: `times[i]`
  /// (and `offsets[i]`, when the log has offsets, else `offsets` empty) are person `i`'s
  /// rows in file order, as `spread` gives them; `note` is the note on rows of people with
  /// no donation, if any. `file` names the visit log (`options.visits`).
  package mutating func addVisits(
    file: String, times: consuming [[Int64]], offsets: consuming [UTCOffsetColumn], note: String?
  ) {
    precondition(times.count == people.count && (offsets.isEmpty || offsets.count == people.count))
    options.visits = .log(VisitLog(file: file, users: [], times: []))
    if let note { notes.append(note) }
    addVisits(mode: .log, timesByPerson: times, offsetsByPerson: offsets)
  }

  /// The note on `rows` visit rows of people with no donation in the log, `examples` the
  /// first of their names met (up to three): `addVisits`' wording, for every way of
  /// reading a visit log.
  package static func unknownVisitsNote(rows: Int, examples: [String]) -> String? {
    guard rows > 0 else { return nil }
    return "\(rows) visit(s) of people with no donation in the log were ignored (e.g. "
      + examples.prefix(3).map { "'\($0)'" }.joined(separator: ", ") + ")"
  }

  /// Every person's visits and targets, from the visit log's rows per person
  /// (`timesByPerson`, `offsetsByPerson`; both empty unless `mode` is `.log`).
  private mutating func addVisits(
    mode: ReplayOptions.Visits.Mode, timesByPerson timesOf: consuming [[Int64]],
    offsetsByPerson offsetsOf: consuming [UTCOffsetColumn]
  ) {
    let horizon = InputLimits.milliseconds(options.horizonSeconds * 1000)
    let warmup = InputLimits.milliseconds(options.warmupDays * 86_400_000)
    let window = options.scoredWindow
    let (timesByPerson, offsetsByPerson) = (timesOf, offsetsOf)
    (timesOf, offsetsOf) = ([], [])
    let before = people
    people = []
    let blocks = ParallelMap.map(ParallelMap.blocks(count: before.count, parts: 4 * ParallelMap.partCount)) {
      block -> [Person] in
      block.map { i in
        var p = before[i]
        Self.addVisits(
          to: &p, mode: mode, logTimes: timesByPerson.isEmpty ? [] : timesByPerson[i],
          logOffsets: offsetsByPerson.isEmpty ? [] : offsetsByPerson[i], warmup: warmup, horizon: horizon, window: window)
        return p
      }
    }
    people.reserveCapacity(before.count)
    for block in blocks { people += block }
  }

  /// The rows of `visitLog` per person of this plan, in file order within a person (times,
  /// and offsets when the log has any, else no array at all), and the note on rows of
  /// people with no donation. Takes the log's chunks and lets each go once spread.
  private func spread(_ visitLog: inout VisitLog) -> (times: [[Int64]], offsets: [UTCOffsetColumn], note: String?) {
    // The person of each of the log's names, or -1. The dictionary is only looked up.
    var personOfName: [String: Int32] = [:]
    for (i, p) in people.enumerated() { personOfName[p.name] = Int32(i) }
    let personOf = visitLog.userNames.map { personOfName[$0] ?? -1 }
    var chunks = visitLog.takeChunks()
    var rowsOf = [Int](repeating: 0, count: people.count)
    var unknown = 0
    var unknownName = [Bool](repeating: false, count: personOf.count)
    var hasOffsets = false
    for chunk in chunks {
      hasOffsets = hasOffsets || !chunk.utcOffsets.isEmpty
      for id in chunk.userIDs {
        let i = personOf[Int(id)]
        if i >= 0 {
          rowsOf[Int(i)] += 1
        } else {
          unknown += 1
          unknownName[Int(id)] = true
        }
      }
    }
    // Chunk by chunk, in file order, in waves of one chunk per core, each wave's chunks let
    // go before the next: each chunk of a wave is grouped by person on a core of its own
    // (`ChunkRowsByPerson`, a counting sort, stable: a person's rows keep file order), then
    // each block of people appends its rows of the wave's chunks, in file order, on a core
    // of its own (`VisitSpreadBlock`). Grouping matters: row by row, nearly every append went
    // to another of thousands of arrays and missed the cache (and the TLB).
    let cores = ParallelMap.partCount
    let grouped = (0..<cores).map { _ in GroupedVisitChunk(people: people.count) }
    let blocks = ParallelMap.blocks(count: people.count, parts: cores).map {
      VisitSpreadBlock(people: $0, rows: rowsOf[$0], offsets: hasOffsets)
    }
    var k = 0
    while k < chunks.count {
      let wave = k..<min(k + cores, chunks.count)
      _ = ParallelMap.map(Array(wave)) { c in
        grouped[c - wave.lowerBound].rows.group(chunks[c], personOf: personOf, offsets: hasOffsets)
      }
      _ = ParallelMap.map(blocks) { block in block.append(grouped.prefix(wave.count)) }
      for c in wave { chunks[c] = VisitChunk(userIDs: [], times: [], utcOffsets: []) }
      k = wave.upperBound
    }
    var times: [[Int64]] = []
    var offsets: [UTCOffsetColumn] = []
    times.reserveCapacity(people.count)
    if hasOffsets { offsets.reserveCapacity(people.count) }
    for block in blocks {
      times += block.times
      offsets += block.offsets
      (block.times, block.offsets) = ([], [])
    }
    // The log's names are in order of first appearance, so the first unknown ones by id
    // are the first met in the file.
    let names = visitLog.userNames
    let examples = unknownName.indices.filter { unknownName[$0] }.prefix(3).map { names[$0] }
    return (times, offsets, Self.unknownVisitsNote(rows: unknown, examples: Array(examples)))
  }

  /// One person's visits and targets (see `addVisits`): `logTimes` and `logOffsets` are
  /// the person's visit log rows in file order (offsets empty when the log has none).
  private static func addVisits(
    to p: inout Person, mode: ReplayOptions.Visits.Mode, logTimes: [Int64], logOffsets: UTCOffsetColumn,
    warmup: Int64, horizon: Int64, window: ScoredWindow?
  ) {
    let first = p.donationTimes.first ?? 0
    var visits: [Int64] = []
    var visitOffsets = UTCOffsetColumn()
    switch mode {
    case .donations:
      for (d, t) in p.donationTimes.enumerated() where visits.last != t {
        visits.append(t)
        if !p.donationOffsets.isEmpty { visitOffsets.append(p.donationOffsets[d]) }
      }
    case .sessions(let gapMinutes):
      let gap = InputLimits.milliseconds(gapMinutes * 60_000)
      var previous = Int64.min
      for (d, t) in p.donationTimes.enumerated() {
        if previous == Int64.min || t - previous >= gap {
          visits.append(t)
          if !p.donationOffsets.isEmpty { visitOffsets.append(p.donationOffsets[d]) }
        }
        previous = t
      }
    case .log:
      visits = logTimes
      let ascending = !zip(visits, visits.dropFirst()).contains(where: { $0 > $1 })
      if logOffsets.contains(where: { $0 != UTCOffset.none }) {
        if ascending {
          visitOffsets = logOffsets
        } else {
          // Stable: visits at one instant keep file order, so their offsets do too.
          let order = visits.indices.sorted { (visits[$0], $0) < (visits[$1], $1) }
          visits = order.map { visits[$0] }
          visitOffsets = UTCOffsetColumn(order.lazy.map { logOffsets[$0] })
        }
      } else if !ascending {
        visits.sort()
      }
    }
    // Warm-up: visits before first + warm-up are not scored (a prefix: visits ascend).
    if warmup > 0 {
      let early = visits.prefix { $0 < first + warmup }.count
      visits.removeFirst(early)
      if !visitOffsets.isEmpty { visitOffsets.removeFirst(early) }
    }
    // A time split: only visits in [start, end) are scored, and their targets come from
    // donations before `end`, so nothing at or after the window's end changes its
    // metrics (docs/batch.md, "Time splits").
    var targetEnd = Int64.max
    if let window {
      let (start, end) = window.bounds(first: first, last: p.donationTimes.last ?? first)
      targetEnd = end
      // Visits ascend, so those kept are one range of them: the offsets are cut at both
      // ends in place (a column rebuilt row by row from them was a fifth of a replay
      // with a split in four windows of a log whose rows have offsets).
      let low = visits.firstIndex { $0 >= start } ?? visits.count
      let high = visits[low...].firstIndex { $0 >= end } ?? visits.count
      if high - low != visits.count {
        if !visitOffsets.isEmpty {
          visitOffsets.removeLast(visits.count - high)
          visitOffsets.removeFirst(low)
        }
        visits = Array(visits[low..<high])
      }
    }
    p.visitOffsets = visitOffsets

    // Targets: the first donation at or after the visit within the horizon (and before
    // a split's window end).
    var d = 0
    p.visitTimes = visits
    p.visitTarget = []
    p.visitTarget.reserveCapacity(visits.count)
    for v in visits {
      while d < p.donationTimes.count && p.donationTimes[d] < v { d += 1 }
      let hit =
        d < p.donationTimes.count && p.donationTimes[d] - v <= horizon && p.donationTimes[d] < targetEnd
      p.visitTarget.append(hit ? Int32(d) : -1)
    }
  }
}
