/// A stack file: the widget instances of a stack (with their configurations) and the
/// supported parameter combinations of the intents that donations use.
///
/// ```json
/// {
///   "instances": [
///     {"id": "acme-grocery", "kind": "RecentPurchases",
///      "configuration": {"card": "Acme", "category": "Grocery"}},
///     {"id": "weather", "kind": "Weather"}
///   ],
///   "intents": {"ViewRecentPurchases": [["card"], ["card", "category"]]}
/// }
/// ```
/// - `instances` (required, 1 to 10 items, reference rule 19): `id` (unique; defaults
///   to `kind`), `kind` (required), `configuration` (optional object of strings).
/// - `intents` (optional): intent name → list of supported combinations, each a list of
///   parameter names. An intent that is absent or has an empty list matches on kind
///   alone (DESIGN.md §4).
public struct StackSpec: Sendable, Hashable {
  /// The file the stack came from.
  public var file: String
  public var instances: [WidgetInstance]
  public var catalog: IntentCatalog

  /// A stack holds at most this many widgets (Apple: "You can stack up to 10 widgets").
  public static let maximumInstances = 10

  public init(file: String, instances: [WidgetInstance], catalog: IntentCatalog = IntentCatalog()) {
    self.file = file
    self.instances = instances
    self.catalog = catalog
  }

  /// Reads a stack file; every problem is reported as `FILE:LINE:COLUMN: path: message`.
  public static func read(path: String) throws -> StackSpec {
    try read(bytes: FileIO.readBytes(path), file: path)
  }

  public static func read(bytes: [UInt8], file: String) throws -> StackSpec {
    var json = JSONDecoding(file: file, bytes: bytes)
    guard let root = json.parseDocument(), let top = json.requireObject(root) else {
      try json.throwIfAny()
      throw DiagnosticList([Diagnostic(file: file, line: 1, column: 1, message: "expected a JSON object")])
    }
    _ = json.rejectUnknownKeys(top, allowed: ["instances", "intents"])
    var instances: [WidgetInstance] = []
    if let items = json.requireArray(top, "instances") {
      if items.isEmpty, let node = top["instances"] {
        json.report("a stack needs at least one instance", at: node)
      }
      if items.count > maximumInstances, let node = top["instances"] {
        json.report(
          "a stack holds at most \(maximumInstances) widgets, found \(items.count)", at: node)
      }
      for item in items {
        guard let object = json.requireObject(item) else { continue }
        _ = json.rejectUnknownKeys(object, allowed: ["id", "kind", "configuration"])
        guard let kind = json.requireString(object, "kind") else { continue }
        let id = json.optionalString(object, "id") ?? kind
        if id.isEmpty || kind.isEmpty {
          json.report("id and kind must not be empty", at: item)
          continue
        }
        if instances.contains(where: { $0.id == id }) {
          json.report("duplicate instance id \(JSONEscaping.quoted(id))", at: object["id"] ?? item)
          continue
        }
        let configuration = json.optionalStringMembers(object, "configuration") ?? []
        instances.append(
          WidgetInstance(id: id, kind: kind, configuration: configuration.map { Parameter($0.key, $0.value) }))
      }
    }
    var catalog = IntentCatalog()
    if let intents = json.optionalObject(top, "intents") {
      for member in intents.members {
        let item = JSONItem(member.node, path: JSONDecoding.path(intents.path, key: member.key))
        guard let combos = json.requireArray(item) else { continue }
        var combinations: [[String]] = []
        for combo in combos {
          guard let names = json.requireArray(combo) else { continue }
          var combination: [String] = []
          for name in names {
            if let text = json.requireString(name) {
              if combination.contains(text) {
                json.report("parameter \(JSONEscaping.quoted(text)) is listed twice", at: name)
              }
              combination.append(text)
            }
          }
          if combination.isEmpty {
            json.report("a supported combination needs at least one parameter name", at: combo)
          }
          combinations.append(combination)
        }
        catalog.declare(member.key, combinations: combinations)
      }
    }
    try json.throwIfAny()
    return StackSpec(file: file, instances: instances, catalog: catalog)
  }
}
