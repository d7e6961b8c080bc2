import SmartStackBase
import SmartStackData
import SmartStackEngine
import SmartStackStrategies
import SmartStackWorld

// The JSON forms of journal lines.
//
// Each line is a record type that writes itself with `JSONWriter` (`jsonValue`) and
// reads itself through the decoding layer (`JSONDecodable`), the keys in one place.
//
// Header (first line):
//   {"journal":"smartstack-batch","version":4,"config_hash":"…","shard":"2/3" or null,
//    "cells":N,"outline":{…},"checksum":"…"}
// The outline's strategy points carry "target_aware" (version 3): which one is the
// oracle `regret` is measured against, which `merge` cannot ask a registry; and "label"
// (issue 29; optional, `descriptor` when absent), the label of summary.csv and paired.csv.
// A people-shard's header also has "people_block":SIZE after "shard" (`PeopleBlocks`).
// Cell (one line per finished cell):
//   {"experiment":"…","cell":12,"run_id":"sample|mfu|0","people":[[13 counts],…],
//    "gini":[x or null,…],"tts":[ms,…],"daily":[[day,13 counts,offset,offset_end],…],
//    "checksum":"…"}
// A block of a cell's people (a people-shard's unit) has "block":[FIRST,END] after
// "run_id"; its arrays are the block's, and "daily" lists its person-days in the order a
// run adds them (`CellResult.people`).
// `experiment` is the experiment's identity: its config hash, the FNV-1a 64 of the
// compact JSON of the resolved config, which holds the seed, the replicates, every source
// point with its options and input files' hashes, the strategy points and the baseline.
// `checksum` is always the last member: 16 lowercase hex digits, the FNV-1a 64 of the
// line's bytes before `,"checksum":"` (see `JournalCodec.sealed` and `verified`).
// The 13 counts are `MetricCounts.baseFields` in order (visits, targetVisits,
// targetsInStack, hits, hitsAt3, reciprocalRankSum, rotations, activeDays,
// relevanceVisits, relevanceHonoured, suppressionViolations, windows, windowsSurfaced),
// followed by the extended fields (`CountField.extended`) in every array of a cell line
// when some extended count of the cell is not zero; a reader accepts either length.
// `offset` and `offset_end` are the day's `DayOffsets` (seconds east of UTC).
// Numbers are written in shortest round-trip form, so values read back bit-identical.

extension MetricCounts {
  /// The counts in journal order: `MetricCounts.baseFields`, or `journalFields` (the
  /// base ones, then the extended ones) when `extended`.
  func journalValues(extended: Bool) -> [Double] {
    (extended ? MetricCounts.journalFields : MetricCounts.baseFields).map { $0.double(self) }
  }

  /// Counts from journal order (the base fields, or every field); nil for another
  /// length or when a count is not a whole number >= 0 (or the sum of reciprocal ranks
  /// is negative or not finite).
  init?(journalValues v: ArraySlice<Double>) {
    let fields = v.count == MetricCounts.journalFields.count ? MetricCounts.journalFields : MetricCounts.baseFields
    guard v.count == fields.count else { return nil }
    self.init()
    for (field, x) in zip(fields, v) {
      guard field.set(&self, x) else { return nil }
    }
  }
}

extension SimulationCounts {
  /// Counts from `values` order; nil unless every value is a whole number >= 0.
  init?(journalValues v: [Double]) {
    guard v.count == SimulationCounts.names.count,
      v.allSatisfy({ $0 >= 0 && $0 <= 9_007_199_254_740_992 && $0.rounded() == $0 })
    else { return nil }
    let c = v.map { Int($0) }
    self.init()
    taps = c[0]
    manualOpens = c[1]
    swipes = c[2]
    unacted = c[3]
    reloadsRequested = c[4]
    reloadsGranted = c[5]
    reloadsRefused = c[6]
    reloadsCoalesced = c[7]
    suggestionWindows = c[8]
  }
}

enum JournalCodec {
  static let format = "smartstack-batch"
  /// 2 since lines carry the experiment's identity and a checksum; 3 since each day of
  /// `daily` carries its UTC offsets (`DayOffsets`) and strategy points carry
  /// `target_aware`; 4 since input files are identified by their CRC-32 (`"crc32"`, was
  /// `"fnv1a64"`), which also changes every config hash. Other versions are refused
  /// (version 2's days have no offsets, which `merge` cannot recompute without the inputs;
  /// version 3's config hashes name its inputs by FNV-1a 64): run without --resume.
  static let version = 4
  /// Versions read: only the current one (see `version`).
  static let readableVersions: [Int] = [4]

  /// Numbers, NaN written as `null`.
  static func numbers(_ values: [Double]) -> JSONValue {
    .array(values.map { JSONNode($0.isNaN ? .null : .number($0)) })
  }

  /// An array of numbers; `null` reads as NaN when `allowNull`.
  static func numbers(_ item: JSONItem, _ json: inout JSONDecoding, allowNull: Bool = false)
    -> [Double]?
  {
    json.decodeArray(item) { element, json in
      allowNull && element.value.isNull ? Double.nan : Double(json: element, in: &json)
    }
  }

  /// The number of counts of a journal array: the base fields, or with the extended ones.
  static var countLengths: String {
    let base = MetricCounts.baseFields.count
    let all = MetricCounts.journalFields.count
    return base == all ? "\(base)" : "\(base) or \(all)"
  }

  /// `MetricCounts` from its journal values (`countLengths`), or reports at `item`.
  static func counts(
    _ values: ArraySlice<Double>, at item: JSONItem, _ json: inout JSONDecoding
  ) -> MetricCounts? {
    guard let counts = MetricCounts(journalValues: values) else {
      json.report("expected \(countLengths) counts (whole numbers >= 0), found \(values.count) values", at: item)
      return nil
    }
    return counts
  }

  /// One cell's journal line (without the newline), with the experiment's identity
  /// `configHash`.
  static func cellLine(_ result: CellResult, runID: String, configHash: String) -> String {
    sealed(
      JournalCell(
        experiment: configHash, index: result.cell.index, runID: runID, metrics: result.metrics,
        people: result.people
      ).jsonValue)
  }

  /// The header line (without the newline).
  static func headerLine(_ outline: ExperimentOutline, shard: Shard?, peopleBlocks: PeopleBlocks? = nil) -> String {
    sealed(JournalHeader(outline: outline, shard: shard, peopleBlocks: peopleBlocks).jsonValue)
  }
}

/// The journal's first line: what experiment (and shard) the cells belong to.
struct JournalHeader: JSONObjectDecodable {
  var outline: ExperimentOutline
  var shard: Shard?
  /// The people blocks of a people-shard (`"people_block": SIZE`, only then present).
  var peopleBlocks: PeopleBlocks?

  init(outline: ExperimentOutline, shard: Shard?, peopleBlocks: PeopleBlocks? = nil) {
    self.outline = outline
    self.shard = shard
    self.peopleBlocks = peopleBlocks
  }

  var jsonValue: JSONValue {
    var members: [JSONMember] = [
      JSONMember("journal", .string(JournalCodec.format)),
      JSONMember("version", .number(Double(JournalCodec.version))),
      JSONMember("config_hash", .string(outline.configHash)),
      JSONMember("shard", shard.map { .string($0.description) } ?? .null),
    ]
    // Only for a people-shard: other journals keep their bytes.
    if let peopleBlocks { members.append(JSONMember("people_block", .number(Double(peopleBlocks.size)))) }
    members += [
      JSONMember("cells", .number(Double(outline.cellCount))),
      JSONMember("outline", outline.journalValue),
    ]
    return .object(members)
  }

  /// Refuses another format or version before reading further; reports a config hash or
  /// cell count that does not match the outline (an edited journal).
  static func read(_ o: inout JSONObjectReader) -> JournalHeader? {
    let format = JournalCodec.format
    let version = JournalCodec.version
    guard o.member("journal")?.value.stringValue == format else {
      o.json.report("not a batch journal (expected \"journal\": \"\(format)\")", at: o.item)
      o.skipRest()
      return nil
    }
    let written = o.member("version")?.value.doubleValue
    guard let written, JournalCodec.readableVersions.contains(where: { Double($0) == written }) else {
      o.json.report(
        "journal version \(written.map(NumberFormat.format) ?? "?") is not supported (expected \(version)); run without --resume to start over",
        at: o.item)
      o.skipRest()
      return nil
    }
    let hash = o.require("config_hash", as: String.self)
    let shard = o.optional("shard") { item, json in
      json.check(String(json: item, in: &json), at: item, { Shard(parsing: $0) != nil }) {
        "expected K/N, found \(JSONEscaping.quoted($0))"
      }.flatMap(Shard.init(parsing:))
    }
    let block = o.optional("people_block", in: 1...Int.max)
    let cells = o.require("cells", in: 0...Int.max)
    let outline = o.require("outline", as: ExperimentOutline.self)
    _ = o.member("checksum")  // verified on the bytes before decoding
    guard let hash, let cells, let outline, o.isClean else { return nil }
    guard hash == outline.configHash, cells == outline.cellCount else {
      o.json.report(
        "config_hash \(hash) and cells \(cells) do not match the outline (\(outline.configHash), \(outline.cellCount) cells): the journal was edited",
        at: o.item)
      return nil
    }
    // Every strategy point states `target_aware` (since version 3).
    let points = o.item.value["outline"]?["strategies"]?.value.arrayValue ?? []
    guard points.allSatisfy({ $0["target_aware"] != nil }) else {
      o.json.report(
        "a strategy point of the outline has no \"target_aware\" (required since journal version 3)", at: o.item)
      return nil
    }
    return JournalHeader(outline: outline, shard: shard, peopleBlocks: block.flatMap { PeopleBlocks(size: $0) })
  }
}

/// One finished cell's line: enough to rebuild every output without running it again.
struct JournalCell: JSONObjectDecodable {
  /// The identity of the experiment the cell was run for (its config hash).
  var experiment: String
  var index: Int
  var runID: String
  var metrics: RunMetrics
  /// The block of people of a people-shard's unit (`"block": [FIRST, END]` after
  /// `run_id`, only then present); its `daily` lists person-days (`CellResult.people`).
  var people: Range<Int>?

  init(experiment: String, index: Int, runID: String, metrics: RunMetrics, people: Range<Int>? = nil) {
    self.experiment = experiment
    self.index = index
    self.runID = runID
    self.metrics = metrics
    self.people = people
  }

  var jsonValue: JSONValue {
    let m = metrics
    let extended = m.total.hasExtendedCounts
    var members: [JSONMember] = [
      JSONMember("experiment", .string(experiment)),
      JSONMember("cell", .number(Double(index))),
      JSONMember("run_id", .string(runID)),
    ]
    if let people {
      members.append(
        JSONMember(
          "block", .array([JSONNode(.number(Double(people.lowerBound))), JSONNode(.number(Double(people.upperBound)))])))
    }
    members += [
      JSONMember(
        "people", .array(m.perPerson.map { JSONNode(JournalCodec.numbers($0.journalValues(extended: extended))) })),
      JSONMember("gini", JournalCodec.numbers(m.perPersonGini)),
      JSONMember("tts", .array(m.timesToSurface.map { JSONNode(.number(Double($0))) })),
      JSONMember(
        "daily",
        .array(
          m.daily.map {
            JSONNode(
              JournalCodec.numbers(
                [Double($0.day)] + $0.counts.journalValues(extended: extended) + [Double($0.offsets.start), Double($0.offsets.end)]))
          }
        )),
    ]
    // Simulated runs also carry `SimulationCounts` in `SimulationCounts.names` order.
    if let simulation = m.simulation {
      members.append(JSONMember("sim", JournalCodec.numbers(simulation.values)))
    }
    return .object(members)
  }

  static func read(_ o: inout JSONObjectReader) -> JournalCell? {
    let experiment = o.require("experiment", as: String.self)
    let index = o.require("cell", in: 0...Int.max)
    let runID = o.require("run_id", as: String.self)
    let block = o.optional("block") { item, json in
      json.check(json.decodeArray(item) { element, json in Int(json: element, in: &json) }, at: item, {
        $0.count == 2 && 0 <= $0[0] && $0[0] < $0[1]
      }) { _ in "expected [first, end] with 0 <= first < end" }
    }
    let people = o.requireArray("people") { item, json in
      JournalCodec.numbers(item, &json).flatMap { JournalCodec.counts($0[...], at: item, &json) }
    }
    let gini = o.require("gini") { item, json in
      json.check(JournalCodec.numbers(item, &json, allowNull: true), at: item, {
        $0.count == people?.count ?? $0.count
      }) { "expected \(people?.count ?? 0) values (one per person), found \($0.count)" }
    }
    let tts = o.requireArray("tts", of: Int64.self)
    let daily = o.requireArray("daily") { item, json in Self.day(item, &json) }
    let simulation = o.optional("sim") { item, json in
      json.check(JournalCodec.numbers(item, &json), at: item, {
        SimulationCounts(journalValues: $0) != nil
      }) { _ in "expected \(SimulationCounts.names.count) whole counts" }
      .flatMap { SimulationCounts(journalValues: $0) }
    }
    _ = o.member("checksum")  // verified on the bytes before decoding
    guard let experiment, let index, let runID, let people, let gini, let tts, let daily,
      o.isClean
    else {
      return nil
    }
    var metrics = RunMetrics(
      perPerson: people, perPersonGini: gini, timesToSurface: tts, daily: daily)
    metrics.simulation = simulation
    let range = block.map { $0[0]..<$0[1] }
    if let range, people.count != range.count {
      o.json.report("expected \(range.count) people (the block), found \(people.count)", at: o.item)
      return nil
    }
    return JournalCell(experiment: experiment, index: index, runID: runID, metrics: metrics, people: range)
  }

  /// `[day, counts (JournalCodec.countLengths), offset, offset_end]`.
  private static func day(_ item: JSONItem, _ json: inout JSONDecoding) -> (
    day: Int64, counts: MetricCounts, offsets: DayOffsets
  )? {
    guard let values = JournalCodec.numbers(item, &json) else { return nil }
    let limit = Double(UTCOffset.limit)
    let lengths = [MetricCounts.baseFields.count + 3, MetricCounts.journalFields.count + 3]
    guard lengths.contains(values.count), let day = values.first, day.rounded() == day, abs(day) < 1e15,
      values.suffix(2).allSatisfy({ $0.rounded() == $0 && abs($0) <= limit })
    else {
      json.report("expected [day, \(JournalCodec.countLengths) counts, utc_offset, utc_offset_end]", at: item)
      return nil
    }
    let offsets = DayOffsets(start: Int32(values[values.count - 2]), end: Int32(values[values.count - 1]))
    return JournalCodec.counts(values.dropFirst().dropLast(2), at: item, &json).map {
      (Int64(day), $0, offsets)
    }
  }
}

extension ExperimentOutline: JSONObjectDecodable {
  /// The outline as the journal header holds it.
  var journalValue: JSONValue {
    [
      "name": .string(name),
      "seed": ExperimentOutline.seedJSON(seed),
      "replicates": .number(Double(replicates)),
      "baseline": .number(Double(baseline)),
      "trace": .bool(trace),
      "sources": .array(sources.map { JSONNode($0.jsonValue) }),
      "strategies": .array(strategies.map { JSONNode($0.jsonValue) }),
      "config": config,
    ]
  }

  /// Reads `journalValue`'s form.
  public static func read(_ o: inout JSONObjectReader) -> ExperimentOutline? {
    let name = o.require("name", as: String.self)
    let seed = o.require("seed") { item, json in Self.seed(item, &json) }
    let replicates = o.require("replicates", in: 1...ExperimentConfig.maximumReplicates)
    let baseline = o.require("baseline", in: 0...Int(Int32.max))
    let trace = o.require("trace", as: Bool.self)
    let sources = o.requireArray("sources", of: Source.self)
    let strategies = o.requireArray("strategies", of: Strategy.self)
    let config = o.require("config")
    guard let name, let seed, let replicates, let baseline, let trace, let sources,
      let strategies, let config, o.isClean
    else { return nil }
    guard baseline < strategies.count, !sources.isEmpty else {
      o.json.report("the outline has no sources or its baseline is out of range", at: o.item)
      return nil
    }
    return ExperimentOutline(
      name: name, seed: seed, replicates: replicates, sources: sources,
      strategies: strategies, baseline: baseline, trace: trace,
      config: config.node.withoutLocations.value)
  }

  /// A seed written by `seedJSON`: an integer, or a string of digits above 2^53.
  static func seed(_ item: JSONItem, _ json: inout JSONDecoding) -> UInt64? {
    guard case .string(let text) = item.value else { return UInt64(json: item, in: &json) }
    guard let seed = UInt64(text) else {
      json.report("expected a seed, found \(JSONEscaping.quoted(text))", at: item)
      return nil
    }
    return seed
  }
}

extension ExperimentOutline.Source: JSONObjectDecodable {
  /// The source as the journal header and the manifest hold it.
  var jsonValue: JSONValue {
    let t = statistics
    var members: [JSONMember] = [
      JSONMember("name", .string(name)),
      JSONMember("kind", .string(kind)),
    ]
    // Only for a split source point: journals without splits keep their bytes.
    if let split { members.append(JSONMember("split", .string(split))) }
    let rest: JSONValue = [
      "units": .string(unitsArePeoplePerReplicate ? "replicate-person" : "person"),
      "people": .number(Double(t.people)),
      "events": .number(Double(t.events)),
      "visits": t.visits.map { .number(Double($0)) } ?? .null,
      "first": t.first.map { .string(ISO8601.format(Instant(milliseconds: $0))) } ?? .null,
      "last": t.last.map { .string(ISO8601.format(Instant(milliseconds: $0))) } ?? .null,
      "span_days": .number(t.spanDays),
      "crc32": .string(t.contentHash),
      "inputs": .array(t.inputs.map { JSONNode($0.jsonValue) }),
    ]
    if case .object(let tail) = rest { members += tail }
    return .object(members)
  }

  /// Reads `jsonValue`'s form; `span_days` is derived from `first` and `last`.
  public static func read(_ o: inout JSONObjectReader) -> Self? {
    let name = o.require("name", as: String.self)
    let kind = o.require("kind", as: String.self)
    let split = o.optional("split", as: String.self)
    let units = o.require("units", as: String.self)
    let people = o.require("people", in: 0...Int.max)
    let events = o.require("events", in: 0...Int.max)
    let visits = o.optional("visits", in: 0...Int.max)
    let first = o.optional("first") { item, json in json.instant(item, zone: .utc) }
    let last = o.optional("last") { item, json in json.instant(item, zone: .utc) }
    _ = o.member("span_days")
    let hash = o.require("crc32", as: String.self)
    let inputs = o.requireArray("inputs", of: SourceInput.self)
    guard let name, let kind, let units, let people, let events, let hash, let inputs,
      o.isClean
    else { return nil }
    return Self(
      name: name, kind: kind, unitsArePeoplePerReplicate: units == "replicate-person",
      statistics: SourceStatistics(
        people: people, events: events, visits: visits, first: first?.milliseconds,
        last: last?.milliseconds, contentHash: hash, inputs: inputs), split: split)
  }
}

extension SourceInput: JSONObjectDecodable {
  var jsonValue: JSONValue {
    ["role": .string(role), "path": .string(path), "crc32": .string(hash)]
  }

  public static func read(_ o: inout JSONObjectReader) -> SourceInput? {
    let role = o.require("role", as: String.self)
    let path = o.require("path", as: String.self)
    let hash = o.require("crc32", as: String.self)
    guard let role, let path, let hash else { return nil }
    return SourceInput(role: role, path: path, hash: hash)
  }
}

extension ExperimentOutline.Strategy: JSONObjectDecodable {
  var jsonValue: JSONValue {
    [
      "descriptor": .string(descriptor), "name": .string(name), "parameters": .string(parameters),
      "target_aware": .bool(targetAware), "label": .string(label),
    ]
  }

  /// Reads `jsonValue`'s form; a missing `target_aware` is read as false here and refused
  /// by `JournalHeader.read`; a missing `label` (a journal written before issue 29) is
  /// read as `descriptor`.
  public static func read(_ o: inout JSONObjectReader) -> Self? {
    let descriptor = o.require("descriptor", as: String.self)
    let name = o.require("name", as: String.self)
    let parameters = o.require("parameters", as: String.self)
    let targetAware = o.optional("target_aware", as: Bool.self)
    let label = o.optional("label", as: String.self)
    guard let descriptor, let name, let parameters else { return nil }
    return Self(
      descriptor: descriptor, name: name, parameters: parameters, targetAware: targetAware ?? false, label: label)
  }
}
