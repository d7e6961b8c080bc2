import SmartStackBase

// Reading clues, their contexts and relevant-intent updates (docs/watchos.md).
extension WatchApp {
  /// `{"configuration": "line=U2", "context": {…}}`.
  static func readClue(_ item: JSONItem, _ json: inout JSONDecoding, zone: ZoneRules) -> WatchClue? {
    json.decodeObject(item) { o in readClue(&o, zone: zone) }
  }

  /// The `configuration` and `context` members of a clue or a relevant intent.
  private static func readClue(_ o: inout JSONObjectReader, zone: ZoneRules) -> WatchClue? {
    let configuration = o.require("configuration", as: String.self)
    let context = o.require("context") { item, json in readContext(item, &json, zone: zone) }
    guard let configuration, let context else { return nil }
    return WatchClue(configuration: configuration, context: context)
  }

  /// The one member of an object of one-of keys: reports none or several, listing `keys`.
  private static func oneOf(_ keys: [String], _ o: inout JSONObjectReader) -> (key: String, item: JSONItem)? {
    let present = keys.compactMap { key in o.member(key).map { (key, $0) } }
    let list = keys.map(JSONEscaping.quoted).joined(separator: ", ")
    if present.count == 1 { return present[0] }
    if present.isEmpty {
      o.json.report("expected one of the keys \(list)", at: o.item)
    } else {
      o.json.report(
        "expected one key of \(list), found \(present.count): \(present.map { JSONEscaping.quoted($0.0) }.joined(separator: ", "))",
        at: present[1].1)
    }
    return nil
  }

  /// `{"date": {…}}`, `{"location": {…}}`, `{"fitness": "workoutActive"}`,
  /// `{"sleep": "bedtime"}` or `{"hardware": {"headphones": "connected"}}`.
  static func readContext(_ item: JSONItem, _ json: inout JSONDecoding, zone: ZoneRules) -> WatchClueContext? {
    json.decodeObject(item) { o -> WatchClueContext? in
      guard let (key, value) = oneOf(["date", "location", "fitness", "sleep", "hardware"], &o) else { return nil }
      switch key {
      case "date":
        return readDate(value, &o.json, zone: zone)
      case "location":
        return o.json.decodeObject(value) { l -> WatchClueContext? in
          guard let (kind, place) = oneOf(["inferred", "region", "category"], &l) else { return nil }
          switch kind {
          case "inferred": return WatchClueContext.InferredLocation(json: place, in: &l.json).map { .inferredLocation($0) }
          case "region": return nonEmpty(place, &l.json).map { .region($0) }
          default: return nonEmpty(place, &l.json).map { .pointOfInterest($0) }
          }
        }
      case "fitness": return WatchClueContext.FitnessCondition(json: value, in: &o.json).map { .fitness($0) }
      case "sleep": return WatchClueContext.SleepCondition(json: value, in: &o.json).map { .sleep($0) }
      default:
        return o.json.decodeObject(value) { h -> WatchClueContext? in
          let state = h.require("headphones", as: String.self, where: { $0 == "connected" }) { _ in
            "expected \"connected\" (hardware(headphones: .connected) is the only hardware clue)"
          }
          return state == nil ? nil : .headphonesConnected
        }
      }
    }
  }

  private static func nonEmpty(_ item: JSONItem, _ json: inout JSONDecoding) -> String? {
    json.check(String(json: item, in: &json), at: item, { !$0.isEmpty }) { _ in "expected a non-empty name" }
  }

  /// `{"from": T, "to": T, "kind"?: K}` or `{"from": T, "duration": SECONDS, "kind"?: K}`.
  private static func readDate(_ item: JSONItem, _ json: inout JSONDecoding, zone: ZoneRules) -> WatchClueContext? {
    json.decodeObject(item) { o -> WatchClueContext? in
      let from = o.require("from") { item, json in json.instant(item, zone: zone) }
      let hasTo = o.has("to")
      let to = o.optional("to") { item, json in json.instant(item, zone: zone) }
      let duration = o.optional("duration", as: Double.self, where: { $0 > 0 && $0 <= 366 * 86_400 }) {
        "expected seconds > 0 and at most 366 days, found \(NumberFormat.format($0))"
      }
      let kind = o.optional("kind", as: WatchClueContext.DateKind.self)
      if hasTo == o.has("duration") {
        o.json.report("expected either \"to\" or \"duration\" (seconds), not \(hasTo ? "both" : "neither")", at: o.item)
      }
      guard let from, o.isClean else { return nil }
      let end = to ?? Instant(milliseconds: from.milliseconds + Int64(((duration ?? 0) * 1000).rounded()))
      if end <= from, let toItem = o.member("to") {
        o.json.report("\"to\" must be after \"from\" (\(ISO8601.format(from)))", at: toItem)
        return nil
      }
      return .date(from: from, to: end, kind: kind)
    }
  }

  /// An update as read, with each intent's `widget` item for the checks.
  struct UpdateDraft {
    var update: RelevantIntentUpdate
    var widgetItems: [JSONItem]
  }

  /// `{"at": T, "intents": [{"widget": K, "configuration": C, "context": {…}}]}`.
  static func readUpdate(_ item: JSONItem, _ json: inout JSONDecoding, zone: ZoneRules) -> UpdateDraft? {
    json.decodeObject(item) { o -> UpdateDraft? in
      let time = o.require("at") { item, json in json.instant(item, zone: zone) }
      let intents = o.requireArray("intents") { item, json in
        json.decodeObject(item) { i -> (RelevantIntent, JSONItem)? in
          let widget = i.require("widget", as: String.self)
          let clue = readClue(&i, zone: zone)
          guard let widget, let clue, let widgetItem = i.member("widget") else { return nil }
          return (RelevantIntent(widget: widget, clue: clue), widgetItem)
        }
      }
      guard let time, let intents else { return nil }
      return UpdateDraft(update: RelevantIntentUpdate(time: time, intents: intents.map(\.0)), widgetItems: intents.map(\.1))
    }
  }

  /// Every intent names a timeline widget of the app (a `RelevanceConfiguration` widget
  /// takes its clues from its own provider's `relevance()`).
  static func checkIntents(_ updates: [UpdateDraft], kinds: [WatchWidget?], _ json: inout JSONDecoding) {
    for update in updates {
      for (intent, item) in zip(update.update.intents, update.widgetItems) {
        guard let widget = kinds.first(where: { $0?.kind == intent.widget }) ?? nil else {
          if !kinds.contains(where: { $0 == nil }) {
            json.report("no widget of kind \(JSONEscaping.quoted(intent.widget)) in this app", at: item)
          }
          continue
        }
        if !widget.mode.isPinnable {
          json.report(
            "\(JSONEscaping.quoted(intent.widget)) is a relevanceConfiguration widget: relevant intents "
              + "name timeline widgets (a relevant widget's clues come from its own relevance())", at: item)
        }
      }
    }
  }
}
