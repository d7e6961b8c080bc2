// Reading an app's `timeline` object (docs/scenario-format.md, "Timeline").

extension TimelineSpec {
  enum Kind: String, CaseIterable {
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

  /// Reads `{"type": …, …}`; local times are read in `zone`.
  static func decode(_ item: JSONItem, _ json: inout JSONDecoding, zone: ZoneRules) -> TimelineSpec?
  {
    guard let object = json.requireObject(item) else { return nil }
    guard let kind = json.requireCase(object, "type", as: Kind.self) else {
      json.rejectUnknownKeys(object, allowed: ["type"] + Kind.allCases.flatMap(\.keys).uniqued())
      return nil
    }
    json.rejectUnknownKeys(object, allowed: ["type"] + kind.keys)
    let want = json.probability(object, "wantProbability", default: kind == .entries ? 0 : 0.5)
    let day = 1_440.0
    switch kind {
    case .calendar:
      let schedule = decodeSchedule(object, &json, zone: zone)
      var calendar = CalendarTimeline(schedule: schedule ?? [])
      calendar.leadMinutes = json.number(object, "leadMinutes", in: 0...day, default: 15)
      calendar.score = json.score(object, "score", default: 1)
      calendar.wantProbability = want
      return schedule == nil ? nil : .calendar(calendar)
    case .sports:
      let schedule = decodeSchedule(object, &json, zone: zone)
      var sports = SportsTimeline(schedule: schedule ?? [])
      sports.leadMinutes = json.number(object, "leadMinutes", in: 0...day, default: 0)
      sports.score = json.score(object, "score", default: 1)
      sports.updateMinutes = json.number(object, "updateMinutes", in: 0...day, default: 15)
      if sports.updateMinutes > 0 && sports.updateMinutes < 1,
        let updateItem = object["updateMinutes"]
      {
        json.report(
          "expected 0 (no updates) or at least 1 minute between updates, found \(json.found(updateItem))",
          at: updateItem)
      }
      sports.wantProbability = want
      return schedule == nil ? nil : .sports(sports)
    case .weather:
      var weather = WeatherTimeline()
      weather.alertsPerDay = json.number(object, "alertsPerDay", in: 0...1_000, default: 0.2)
      weather.alertMinutes = json.number(object, "alertMinutes", in: 1...(7 * day), default: 120)
      if let weightsItem = json.optional(object, "severityWeights"),
        let items = json.requireArray(weightsItem)
      {
        let weights = items.compactMap { json.requireDouble($0, in: 0...Double.infinity) }
        if items.count != 3 {
          json.report(
            "expected 3 weights, for severities 1 (minor), 2 (moderate) and 3 (severe), found \(items.count)",
            at: weightsItem)
        } else if weights.count == 3 {
          if weights.reduce(0, +) > 0 {
            weather.severityWeights = weights
          } else {
            json.report("at least one severity weight must be positive", at: weightsItem)
          }
        }
      }
      weather.wantProbability = want
      return .weather(weather)
    case .purchases:
      var purchases = PurchasesTimeline()
      purchases.purchasesPerDay = json.number(object, "purchasesPerDay", in: 0...1_000, default: 2)
      purchases.medianAmount = json.number(object, "medianAmount", in: 0.01...1e9, default: 20)
      purchases.amountSigma = json.number(object, "amountSigma", in: 0...5, default: 1)
      purchases.wantMinutes = json.number(object, "wantMinutes", in: 1...day, default: 30)
      purchases.wantProbability = want
      return .purchases(purchases)
    case .emptyState:
      var state = EmptyStateTimeline()
      state.contentMinutes = json.number(object, "contentMinutes", in: 1...(366 * day), default: 60)
      state.emptyMinutes = json.number(object, "emptyMinutes", in: 1...(366 * day), default: 240)
      state.score = json.score(object, "score", default: 1)
      if state.score <= 0, let scoreItem = object["score"] {
        json.report(
          "expected a score > 0 for the widget with content, found \(json.found(scoreItem))",
          at: scoreItem)
      }
      state.emptyScore = json.score(object, "emptyScore", default: 0)
      if state.emptyScore > 0, let scoreItem = object["emptyScore"] {
        json.report(
          "expected a score <= 0 for the empty widget (reference rule 3), found \(json.found(scoreItem))",
          at: scoreItem)
      }
      state.wantProbability = want
      return .emptyState(state)
    case .entries:
      guard let entriesItem = json.require(object, "entries"),
        let entries = TimelineFile.decodeEntries(entriesItem, &json, timeZone: zone)
      else { return nil }
      var explicit = EntriesTimeline(entries: entries)
      explicit.wantProbability = want
      return .entries(explicit)
    }
  }

  /// `schedule`: a non-empty list of `{"at": …, "minutes": …}` or
  /// `{"days": […], "time": "HH:MM", "minutes": …}`.
  private static func decodeSchedule(
    _ object: JSONObjectItem, _ json: inout JSONDecoding, zone: ZoneRules
  ) -> [ScheduleItem]? {
    guard let item = json.require(object, "schedule"), let items = json.requireArray(item) else {
      return nil
    }
    if items.isEmpty {
      json.report("expected at least one scheduled time", at: item)
      return nil
    }
    var schedule: [ScheduleItem] = []
    var valid = true
    for entry in items {
      guard let entryObject = json.requireObject(entry) else {
        valid = false
        continue
      }
      json.rejectUnknownKeys(entryObject, allowed: ["at", "days", "time", "minutes"])
      let minutes = json.requireDouble(entryObject, "minutes", in: 1...1_440)
      var start: ScheduleItem.Start? = nil
      if let atItem = json.optional(entryObject, "at") {
        if entryObject.contains("days") || entryObject.contains("time") {
          json.report(
            "give either \"at\" (one date) or \"days\" and \"time\" (weekly), not both", at: entry)
        } else if let instant = json.instant(atItem, zone: zone) {
          start = .once(instant)
        }
      } else if !entryObject.contains("days") && !entryObject.contains("time") {
        json.report("expected \"at\" (one date) or \"days\" and \"time\" (weekly)", at: entry)
      } else {
        let days = json.require(entryObject, "days").flatMap { json.weekdays($0) }
        let time = json.require(entryObject, "time").flatMap { json.clock($0) }
        if let days, let time { start = .weekly(weekdays: days, minuteOfDay: time) }
      }
      if let start, let minutes {
        schedule.append(ScheduleItem(start: start, minutes: minutes))
      } else {
        valid = false
      }
    }
    return valid ? schedule : nil
  }
}

extension Array where Element == String {
  /// The elements in order, each kept once.
  fileprivate func uniqued() -> [String] {
    var seen: [String] = []
    for element in self where !seen.contains(element) { seen.append(element) }
    return seen
  }
}
