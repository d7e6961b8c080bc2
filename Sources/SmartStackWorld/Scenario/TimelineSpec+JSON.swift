import SmartStackBase
import SmartStackData
import SmartStackEngine

// Reading an app's `timeline` object (docs/scenario-format.md, "Timeline").

extension TimelineSpec {
  enum Kind: String, CaseIterable, JSONDecodable {
    case calendar, weather, sports, purchases
    case emptyState = "empty-state"
    case entries

    /// The keys each type accepts besides `type`.
    var keys: [String] {
      switch self {
      case .calendar: ["schedule", "leadMinutes", "score", "wantProbability"]
      case .sports: ["schedule", "leadMinutes", "score", "updateMinutes", "wantProbability"]
      case .weather: ["alertsPerDay", "alertMinutes", "severityWeights", "wantProbability"]
      case .purchases:
        ["purchasesPerDay", "medianAmount", "amountSigma", "wantMinutes", "wantProbability"]
      case .emptyState:
        ["contentMinutes", "emptyMinutes", "score", "emptyScore", "wantProbability"]
      case .entries: ["entries", "wantProbability"]
      }
    }
  }

  /// The scores a timeline accepts: finite and within `Float` range (WidgetKit's score
  /// type).
  static let scores = -TimelineFile.maximumScoreMagnitude...TimelineFile.maximumScoreMagnitude

  /// Reads `{"type": …, …}`; local times are read in `zone`. With no valid `type`, the
  /// keys of every type are accepted (so only keys no type has are called unknown).
  static func decode(_ item: JSONItem, _ json: inout JSONDecoding, zone: ZoneRules) -> TimelineSpec?
  {
    json.decodeObject(item) { o in
      guard let kind = o.require("type", as: Kind.self) else {
        for key in Kind.allCases.flatMap(\.keys) { _ = o.member(key) }
        return nil
      }
      return read(kind, &o, zone: zone)
    }
  }

  /// Reads the keys of `kind`, each type's keys in the order of `Kind.keys`.
  private static func read(_ kind: Kind, _ o: inout JSONObjectReader, zone: ZoneRules)
    -> TimelineSpec?
  {
    func want(_ o: inout JSONObjectReader) -> Double {
      o.optional("wantProbability", in: 0...1, default: kind == .entries ? 0 : 0.5)
    }
    let day = 1_440.0
    switch kind {
    case .calendar:
      let schedule = decodeSchedule(&o, zone: zone)
      var calendar = CalendarTimeline(schedule: schedule ?? [])
      calendar.leadMinutes = o.optional("leadMinutes", in: 0...day, default: 15)
      calendar.score = o.optional("score", in: scores, default: 1)
      calendar.wantProbability = want(&o)
      return schedule == nil ? nil : .calendar(calendar)
    case .sports:
      let schedule = decodeSchedule(&o, zone: zone)
      var sports = SportsTimeline(schedule: schedule ?? [])
      sports.leadMinutes = o.optional("leadMinutes", in: 0...day, default: 0)
      sports.score = o.optional("score", in: scores, default: 1)
      sports.updateMinutes = o.optional("updateMinutes", in: 0...day, default: 15)
      if sports.updateMinutes > 0 && sports.updateMinutes < 1,
        let updateItem = o.object["updateMinutes"]
      {
        o.json.report(
          "expected 0 (no updates) or at least 1 minute between updates, found \(o.json.found(updateItem))",
          at: updateItem)
      }
      sports.wantProbability = want(&o)
      return schedule == nil ? nil : .sports(sports)
    case .weather:
      var weather = WeatherTimeline()
      weather.alertsPerDay = o.optional("alertsPerDay", in: 0...1_000, default: 0.2)
      weather.alertMinutes = o.optional("alertMinutes", in: 1...(7 * day), default: 120)
      if let weightsItem = o.optional("severityWeights"),
        let weights = severityWeights(weightsItem, &o.json)
      {
        weather.severityWeights = weights
      }
      weather.wantProbability = want(&o)
      return .weather(weather)
    case .purchases:
      var purchases = PurchasesTimeline()
      purchases.purchasesPerDay = o.optional("purchasesPerDay", in: 0...1_000, default: 2)
      purchases.medianAmount = o.optional("medianAmount", in: 0.01...1e9, default: 20)
      purchases.amountSigma = o.optional("amountSigma", in: 0...5, default: 1)
      purchases.wantMinutes = o.optional("wantMinutes", in: 1...day, default: 30)
      purchases.wantProbability = want(&o)
      return .purchases(purchases)
    case .emptyState:
      var state = EmptyStateTimeline()
      state.contentMinutes = o.optional("contentMinutes", in: 1...(366 * day), default: 60)
      state.emptyMinutes = o.optional("emptyMinutes", in: 1...(366 * day), default: 240)
      state.score = o.optional("score", in: scores, default: 1)
      if state.score <= 0, let scoreItem = o.object["score"] {
        o.json.report(
          "expected a score > 0 for the widget with content, found \(o.json.found(scoreItem))",
          at: scoreItem)
      }
      state.emptyScore = o.optional("emptyScore", in: scores, default: 0)
      if state.emptyScore > 0, let scoreItem = o.object["emptyScore"] {
        o.json.report(
          "expected a score <= 0 for the empty widget (reference rule 3), found \(o.json.found(scoreItem))",
          at: scoreItem)
      }
      state.wantProbability = want(&o)
      return .emptyState(state)
    case .entries:
      let entries = o.require("entries") { item, json in
        TimelineFile.decodeEntries(item, &json, timeZone: zone)
      }
      let wantProbability = want(&o)
      guard let entries else { return nil }
      var explicit = EntriesTimeline(entries: entries)
      explicit.wantProbability = wantProbability
      return .entries(explicit)
    }
  }

  /// `severityWeights`: 3 weights >= 0, not all 0; nil after a problem.
  private static func severityWeights(_ item: JSONItem, _ json: inout JSONDecoding) -> [Double]? {
    guard let items = json.requireArray(item) else { return nil }
    let weights = items.compactMap { json.requireDouble($0, in: 0...Double.infinity) }
    if items.count != 3 {
      json.report(
        "expected 3 weights, for severities 1 (minor), 2 (moderate) and 3 (severe), found \(items.count)",
        at: item)
      return nil
    }
    guard weights.count == 3 else { return nil }
    guard weights.reduce(0, +) > 0 else {
      json.report("at least one severity weight must be positive", at: item)
      return nil
    }
    return weights
  }

  /// `schedule`: a non-empty list of `{"at": …, "minutes": …}` or
  /// `{"days": […], "time": "HH:MM", "minutes": …}`.
  private static func decodeSchedule(_ o: inout JSONObjectReader, zone: ZoneRules)
    -> [ScheduleItem]?
  {
    o.require("schedule") { item, json in
      if item.value.arrayValue?.isEmpty == true {
        json.report("expected at least one scheduled time", at: item)
        return nil
      }
      return json.decodeArray(item) { entry, json in ScheduleItem.decode(entry, &json, zone: zone) }
    }
  }
}

extension ScheduleItem {
  /// `{"at": …, "minutes": …}` (once) or `{"days": […], "time": "HH:MM", "minutes": …}`
  /// (weekly), never both.
  static func decode(_ item: JSONItem, _ json: inout JSONDecoding, zone: ZoneRules)
    -> ScheduleItem?
  {
    json.decodeObject(item) { o in
      let atItem = o.optional("at")
      let (daysItem, timeItem) = (o.member("days"), o.member("time"))
      let hasWeekly = daysItem != nil || timeItem != nil
      let minutes = o.require("minutes", in: 1...1_440.0)
      var start: ScheduleItem.Start? = nil
      if let atItem {
        if hasWeekly {
          o.json.report(
            "give either \"at\" (one date) or \"days\" and \"time\" (weekly), not both", at: o.item)
        } else if let instant = o.json.instant(atItem, zone: zone) {
          start = .once(instant)
        }
      } else if !hasWeekly {
        o.json.report("expected \"at\" (one date) or \"days\" and \"time\" (weekly)", at: o.item)
      } else {
        let days = o.require("days") { item, json in json.weekdays(item) }
        let time = o.require("time") { item, json in json.clock(item) }
        if let days, let time { start = .weekly(weekdays: days, minuteOfDay: time) }
      }
      guard let start, let minutes else { return nil }
      return ScheduleItem(start: start, minutes: minutes)
    }
  }
}
