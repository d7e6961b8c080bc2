import SmartStackBase

// Reading widget instances and intent catalogs, as stack files and scenarios' `stack`
// give them (format: `StackSpec`).

extension WidgetInstance: JSONObjectDecodable {
  /// `{"id": …, "kind": …, "configuration": {"card": "Acme"}}`; `id` defaults to `kind`,
  /// and neither may be empty.
  public static func read(_ o: inout JSONObjectReader) -> WidgetInstance? {
    let id = o.optional("id", as: String.self)
    let kind = o.require("kind", as: String.self)
    let configuration = o.optionalStringMembers("configuration") ?? []
    guard let kind else { return nil }
    guard !kind.isEmpty, !(id ?? kind).isEmpty else {
      o.json.report("id and kind must not be empty", at: o.item)
      return nil
    }
    return WidgetInstance(
      id: id ?? kind, kind: kind, configuration: configuration.map { Parameter($0.key, $0.value) })
  }

  /// A stack's `instances`: 1 to `StackSpec.maximumInstances` widgets with distinct ids.
  /// Every instance is read and every problem reported; nil when an instance could not
  /// be read or repeats an id. Repeated ids are looked for only in a stack within the
  /// size limit (past it, the size is the problem to fix, and a huge array would make
  /// every id a report), with a set that only answers membership (its order reaches no
  /// output): O(n) in the instances.
  static package func decodeStack(_ item: JSONItem, _ json: inout JSONDecoding) -> [WidgetInstance]? {
    guard let items = json.requireArray(item) else { return nil }
    if items.isEmpty { json.report("a stack needs at least one instance", at: item) }
    let tooMany = items.count > StackSpec.maximumInstances
    if tooMany {
      json.report(
        "a stack holds at most \(StackSpec.maximumInstances) widgets, found \(items.count)", at: item)
    }
    var instances: [WidgetInstance] = []
    var ids = Set<String>()
    var valid = !tooMany
    for element in items {
      guard let instance = WidgetInstance(json: element, in: &json) else {
        valid = false
        continue
      }
      if tooMany { continue }
      if !ids.insert(instance.id).inserted {
        json.report(
          "duplicate instance id \(JSONEscaping.quoted(instance.id))", at: element["id"] ?? element)
        valid = false
        continue
      }
      instances.append(instance)
    }
    return valid ? instances : nil
  }
}

extension IntentCatalog: JSONDecodable {
  /// `{"ViewRecentPurchases": [["card"], ["card", "category"]]}`: intent name -> its
  /// supported combinations, each a non-empty list of distinct parameter names. The
  /// keys are intent names, so none is unknown. Combinations are kept as far as they
  /// could be read (the read fails anyway once something was reported).
  public init?(json item: JSONItem, in json: inout JSONDecoding) {
    guard let intents = json.requireObject(item) else { return nil }
    self.init()
    for member in intents.members {
      guard let combos = intents[member.key].flatMap({ json.requireArray($0) }) else { continue }
      var combinations: [[String]] = []
      for combo in combos {
        guard let names = json.requireArray(combo) else { continue }
        var combination: [String] = []
        for name in names {
          guard let text = json.requireString(name) else { continue }
          if combination.contains(text) {
            json.report("parameter \(JSONEscaping.quoted(text)) is listed twice", at: name)
          }
          combination.append(text)
        }
        if names.isEmpty {
          json.report("a supported combination needs at least one parameter name", at: combo)
        }
        combinations.append(combination)
      }
      declare(member.key, combinations: combinations)
    }
  }
}
