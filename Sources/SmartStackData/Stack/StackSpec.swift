import SmartStackBase

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
    guard let root = json.parseDocument() else { return try json.finish(nil) }
    let stack = json.decodeObject(root) { o -> StackSpec? in
      let instances = o.require("instances") { item, json in WidgetInstance.decodeStack(item, &json) }
      let catalog = o.optional("intents", as: IntentCatalog.self) ?? IntentCatalog()
      return instances.map { StackSpec(file: file, instances: $0, catalog: catalog) }
    }
    return try json.finish(stack)
  }
}
