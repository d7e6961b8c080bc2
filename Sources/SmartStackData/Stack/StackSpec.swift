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
/// - the stack's rules (optional, the keys of a scenario's `stack`): `smartRotate`
///   (default true), `developerMode`, `swipeCooldownMinutes` (default 60) and
///   `rotationLimit` (`{"perHour": 4, "perDay": 40}`). A file that names none of them
///   has no rules (`rules` nil: `replay` then uses `StackRuleSettings.unconstrained`).
///   One that names any starts from `unconstrained`, so the rotation limit binds only
///   when the file names `rotationLimit` or sets `developerMode` to false (then 4/40 unless
///   `rotationLimit` says otherwise).
public struct StackSpec: Sendable, Hashable {
  /// The file the stack came from.
  public var file: String
  public var instances: [WidgetInstance]
  public var catalog: IntentCatalog
  /// The stack's rules the file states, nil when it names none (see above).
  public var rules: StackRuleSettings?

  /// A stack holds at most this many widgets (Apple: "You can stack up to 10 widgets").
  public static let maximumInstances = 10

  public init(
    file: String, instances: [WidgetInstance], catalog: IntentCatalog = IntentCatalog(),
    rules: StackRuleSettings? = nil
  ) {
    self.file = file
    self.instances = instances
    self.catalog = catalog
    self.rules = rules
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
      var rules: StackRuleSettings? = nil
      if StackRuleSettings.jsonKeys.contains(where: { o.has($0) }) {
        var defaults = StackRuleSettings.unconstrained
        if o.has("rotationLimit") { defaults.developerMode = false }
        rules = StackRuleSettings.read(&o, over: defaults)
      }
      return instances.map { StackSpec(file: file, instances: $0, catalog: catalog, rules: rules) }
    }
    return try json.finish(stack)
  }
}
