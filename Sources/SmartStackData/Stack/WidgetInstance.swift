import SmartStackBase

/// A widget in a stack: a widget kind plus its configuration (intent parameters).
///
/// Two instances of one kind with different configurations are distinct candidates,
/// e.g. kind `RecentPurchases` with `card=Acme;category=Grocery` and with
/// `card=Acme;category=Travel` (DESIGN.md §4, reference Q10).
public struct WidgetInstance: Hashable, Sendable {
  /// A name unique within the stack, written into outputs (e.g. `acme-grocery`).
  public var id: String
  /// The widget kind (or app identifier) that donations name.
  public var kind: String
  /// The configured intent parameters, sorted by key, keys unique.
  public var configuration: [Parameter] { _configuration }
  package var _configuration: [Parameter]

  /// - Precondition: configuration keys are unique.
  public init(id: String, kind: String, configuration: [Parameter] = []) {
    self.id = id
    self.kind = kind
    self._configuration = configuration.sorted { $0.key < $1.key }
  }

  /// The configured value of `key`, or nil. O(log n).
  public func value(of key: String) -> String? {
    var low = 0
    var high = configuration.count
    while low < high {
      let mid = (low + high) / 2
      if configuration[mid].key < key { low = mid + 1 } else { high = mid }
    }
    return low < configuration.count && configuration[low].key == key
      ? configuration[low].value : nil
  }
}

/// One intent parameter: a name and its value, both as text.
public struct Parameter: Hashable, Sendable, Comparable {
  public var key: String
  public var value: String
  public init(_ key: String, _ value: String) {
    self.key = key
    self.value = value
  }
  public static func < (a: Parameter, b: Parameter) -> Bool {
    a.key != b.key ? a.key < b.key : a.value < b.value
  }
}
