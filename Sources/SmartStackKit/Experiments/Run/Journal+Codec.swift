// The JSON forms of journal lines.
//
// Header (first line):
//   {"journal":"smartstack-batch","version":1,"config_hash":"…","shard":"2/3" or null,
//    "cells":N,"outline":{…}}
// Cell (one line per finished cell):
//   {"cell":12,"run_id":"sample|mfu|0","people":[[13 counts],…],"gini":[x or null,…],
//    "tts":[ms,…],"daily":[[day,13 counts],…]}
// The 13 counts are `MetricCounts` in declaration order (visits, targetVisits,
// targetsInStack, hits, hitsAt3, reciprocalRankSum, rotations, activeDays,
// relevanceVisits, relevanceHonoured, suppressionViolations, windows, windowsSurfaced).
// Numbers are written in shortest round-trip form, so values read back bit-identical.

extension MetricCounts {
  /// The counts in journal order.
  var journalValues: [Double] {
    [
      Double(visits), Double(targetVisits), Double(targetsInStack), Double(hits), Double(hitsAt3),
      reciprocalRankSum, Double(rotations), Double(activeDays), Double(relevanceVisits),
      Double(relevanceHonoured), Double(suppressionViolations), Double(windows),
      Double(windowsSurfaced),
    ]
  }

  /// Counts from journal order; nil when a count is not a whole number >= 0 (or the sum
  /// of reciprocal ranks is negative or not finite).
  init?(journalValues v: ArraySlice<Double>) {
    guard v.count == 13 else { return nil }
    let b = v.startIndex
    func count(_ i: Int) -> Int? {
      let x = v[b + i]
      guard x >= 0, x <= 9_007_199_254_740_992, x.rounded() == x else { return nil }
      return Int(x)
    }
    self.init()
    guard let a0 = count(0), let a1 = count(1), let a2 = count(2), let a3 = count(3),
      let a4 = count(4), let a6 = count(6), let a7 = count(7), let a8 = count(8),
      let a9 = count(9), let a10 = count(10), let a11 = count(11), let a12 = count(12),
      v[b + 5].isFinite, v[b + 5] >= 0
    else { return nil }
    visits = a0
    targetVisits = a1
    targetsInStack = a2
    hits = a3
    hitsAt3 = a4
    reciprocalRankSum = v[b + 5]
    rotations = a6
    activeDays = a7
    relevanceVisits = a8
    relevanceHonoured = a9
    suppressionViolations = a10
    windows = a11
    windowsSurfaced = a12
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
  static let version = 1

  static func numbers(_ values: [Double]) -> JSONValue {
    .array(values.map { JSONNode($0.isNaN ? .null : .number($0)) })
  }

  /// One cell's journal line (without the newline).
  static func cellLine(_ result: CellResult, runID: String) -> String {
    let m = result.metrics
    var members: [JSONMember] = [
      JSONMember("cell", .number(Double(result.cell.index))),
      JSONMember("run_id", .string(runID)),
      JSONMember("people", .array(m.perPerson.map { JSONNode(numbers($0.journalValues)) })),
      JSONMember("gini", numbers(m.perPersonGini)),
      JSONMember("tts", .array(m.timesToSurface.map { JSONNode(.number(Double($0))) })),
      JSONMember(
        "daily",
        .array(m.daily.map { JSONNode(numbers([Double($0.day)] + $0.counts.journalValues)) })),
    ]
    // Simulated runs also carry `SimulationCounts` in `SimulationCounts.names` order.
    if let simulation = m.simulation { members.append(JSONMember("sim", numbers(simulation.values))) }
    return JSONValue.object(members).serialized()
  }

  /// The header line (without the newline).
  static func headerLine(_ outline: ExperimentOutline, shard: Shard?) -> String {
    let line: JSONValue = [
      "journal": .string(format),
      "version": .number(Double(version)),
      "config_hash": .string(outline.configHash),
      "shard": shard.map { .string($0.description) } ?? .null,
      "cells": .number(Double(outline.cellCount)),
      "outline": outlineJSON(outline),
    ]
    return line.serialized()
  }

  static func outlineJSON(_ o: ExperimentOutline) -> JSONValue {
    [
      "name": .string(o.name),
      "seed": ExperimentOutline.seedJSON(o.seed),
      "replicates": .number(Double(o.replicates)),
      "baseline": .number(Double(o.baseline)),
      "trace": .bool(o.trace),
      "sources": .array(o.sources.map { JSONNode(sourceJSON($0)) }),
      "strategies": .array(
        o.strategies.map {
          JSONNode(
            [
              "descriptor": .string($0.descriptor), "name": .string($0.name),
              "parameters": .string($0.parameters),
            ])
        }),
      "config": o.config,
    ]
  }

  static func sourceJSON(_ s: ExperimentOutline.Source) -> JSONValue {
    let t = s.statistics
    return [
      "name": .string(s.name),
      "kind": .string(s.kind),
      "units": .string(s.unitsArePeoplePerReplicate ? "replicate-person" : "person"),
      "people": .number(Double(t.people)),
      "events": .number(Double(t.events)),
      "visits": t.visits.map { .number(Double($0)) } ?? .null,
      "first": t.first.map { .string(ISO8601.format(Instant(milliseconds: $0))) } ?? .null,
      "last": t.last.map { .string(ISO8601.format(Instant(milliseconds: $0))) } ?? .null,
      "span_days": .number(t.spanDays),
      "fnv1a64": .string(t.contentHash),
      "inputs": .array(
        t.inputs.map {
          JSONNode([
            "role": .string($0.role), "path": .string($0.path), "fnv1a64": .string($0.hash),
          ])
        }),
    ]
  }
}

// MARK: - Reading

extension JSONDecoding {
  /// A seed written by `ExperimentOutline.seedJSON`.
  mutating func requireSeed(_ object: JSONObjectItem, _ key: String) -> UInt64? {
    guard let item = require(object, key) else { return nil }
    if case .string(let text) = item.value {
      guard let seed = UInt64(text) else {
        report("expected a seed, found \(JSONEscaping.quoted(text))", at: item)
        return nil
      }
      return seed
    }
    return requireInteger(item, in: UInt64.min...UInt64.max)
  }

  /// An array of numbers (`null` for NaN when `allowNull`).
  mutating func requireNumbers(_ item: JSONItem, allowNull: Bool = false) -> [Double]? {
    guard case .array(let elements) = item.value else {
      report("expected an array of numbers, found \(found(item))", at: item)
      return nil
    }
    var values: [Double] = []
    values.reserveCapacity(elements.count)
    for (i, e) in elements.enumerated() {
      switch e.value {
      case .number(let x): values.append(x)
      case .null where allowNull: values.append(.nan)
      default:
        report(
          "expected a number, found \(e.value.kindDescription)", at: e.offset,
          path: JSONDecoding.path(item.path, index: i))
        return nil
      }
    }
    return values
  }

  /// `MetricCounts` from 13 numbers.
  mutating func requireCounts(_ values: ArraySlice<Double>, at item: JSONItem) -> MetricCounts? {
    guard let counts = MetricCounts(journalValues: values) else {
      report("expected 13 counts (whole numbers >= 0), found \(values.count) values", at: item)
      return nil
    }
    return counts
  }
}

extension JournalCodec {
  /// Reads a header line's outline.
  static func readOutline(_ json: inout JSONDecoding, _ object: JSONObjectItem)
    -> ExperimentOutline?
  {
    guard let name = json.requireString(object, "name"),
      let seed = json.requireSeed(object, "seed"),
      let replicates = json.requireInteger(
        object, "replicates", in: 1...ExperimentConfig.maximumReplicates),
      let baseline = json.requireInteger(object, "baseline", in: 0...Int(Int32.max)),
      let trace = json.requireBool(object, "trace"),
      let sourceItems = json.requireArray(object, "sources"),
      let strategyItems = json.requireArray(object, "strategies"),
      let config = json.require(object, "config")
    else { return nil }
    var sources: [ExperimentOutline.Source] = []
    for item in sourceItems {
      guard let s = json.requireObject(item),
        let name = json.requireString(s, "name"),
        let kind = json.requireString(s, "kind"),
        let units = json.requireString(s, "units"),
        let people = json.requireInteger(s, "people", in: 0...Int.max),
        let events = json.requireInteger(s, "events", in: 0...Int.max),
        let hash = json.requireString(s, "fnv1a64"),
        let inputItems = json.requireArray(s, "inputs")
      else { return nil }
      let visits = json.optionalInteger(s, "visits", in: 0...Int.max)
      func instant(_ key: String) -> Int64? {
        guard let text = s[key]?.value.stringValue, case .success(let t) = ISO8601.parse(text)
        else { return nil }
        return ZoneRules.utc.resolve(t).milliseconds
      }
      var inputs: [SourceInput] = []
      for inputItem in inputItems {
        guard let i = json.requireObject(inputItem),
          let role = json.requireString(i, "role"), let path = json.requireString(i, "path"),
          let hash = json.requireString(i, "fnv1a64")
        else { return nil }
        inputs.append(SourceInput(role: role, path: path, hash: hash))
      }
      sources.append(
        ExperimentOutline.Source(
          name: name, kind: kind, unitsArePeoplePerReplicate: units == "replicate-person",
          statistics: SourceStatistics(
            people: people, events: events, visits: visits, first: instant("first"),
            last: instant("last"), contentHash: hash, inputs: inputs)))
    }
    var strategies: [ExperimentOutline.Strategy] = []
    for item in strategyItems {
      guard let s = json.requireObject(item),
        let descriptor = json.requireString(s, "descriptor"),
        let name = json.requireString(s, "name"),
        let parameters = json.requireString(s, "parameters")
      else { return nil }
      strategies.append(
        ExperimentOutline.Strategy(descriptor: descriptor, name: name, parameters: parameters))
    }
    guard baseline < strategies.count, !sources.isEmpty else {
      json.report(
        "the outline has no sources or its baseline is out of range", at: object.offset,
        path: object.path)
      return nil
    }
    return ExperimentOutline(
      name: name, seed: seed, replicates: replicates, sources: sources, strategies: strategies,
      baseline: baseline, trace: trace, config: config.node.withoutLocations.value)
  }

  /// Reads a cell line into its index, run id and metrics.
  static func readCell(_ json: inout JSONDecoding, _ object: JSONObjectItem) -> (
    index: Int, runID: String, metrics: RunMetrics
  )? {
    guard let index = json.requireInteger(object, "cell", in: 0...Int.max),
      let runID = json.requireString(object, "run_id"),
      let peopleItems = json.requireArray(object, "people"),
      let giniItem = json.require(object, "gini"),
      let ttsItem = json.require(object, "tts"),
      let dailyItems = json.requireArray(object, "daily")
    else { return nil }
    var people: [MetricCounts] = []
    people.reserveCapacity(peopleItems.count)
    for item in peopleItems {
      guard let values = json.requireNumbers(item),
        let counts = json.requireCounts(values[...], at: item)
      else {
        return nil
      }
      people.append(counts)
    }
    guard let gini = json.requireNumbers(giniItem, allowNull: true),
      let ttsValues = json.requireNumbers(ttsItem)
    else { return nil }
    guard gini.count == people.count else {
      json.report(
        "expected \(people.count) values (one per person), found \(gini.count)", at: giniItem)
      return nil
    }
    var tts: [Int64] = []
    for x in ttsValues {
      guard x.rounded() == x, abs(x) < 9.2e18 else {
        json.report("expected whole milliseconds", at: ttsItem)
        return nil
      }
      tts.append(Int64(x))
    }
    var daily: [(day: Int64, counts: MetricCounts)] = []
    for item in dailyItems {
      guard let values = json.requireNumbers(item), let day = values.first, day.rounded() == day,
        abs(day) < 1e15,
        let counts = json.requireCounts(values.dropFirst(), at: item)
      else {
        if !json.isFull { json.report("expected [day, 13 counts]", at: item) }
        return nil
      }
      daily.append((Int64(day), counts))
    }
    var metrics = RunMetrics(perPerson: people, perPersonGini: gini, timesToSurface: tts, daily: daily)
    if let simItem = json.optional(object, "sim") {
      guard let values = json.requireNumbers(simItem), let counts = SimulationCounts(journalValues: values) else {
        if !json.isFull { json.report("expected \(SimulationCounts.names.count) whole counts", at: simItem) }
        return nil
      }
      metrics.simulation = counts
    }
    return (index, runID, metrics)
  }
}
