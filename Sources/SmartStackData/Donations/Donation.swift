import SmartStackBase

/// One donation: a person viewed something in an app at an instant (DESIGN.md §4).
///
/// A convenient value for tests and small in-memory logs; large logs are held column by
/// column in `DonationLog`.
public struct Donation: Hashable, Sendable, CustomStringConvertible {
  /// When the donation happened.
  public var timestamp: Instant
  /// The person or device; `default` when the log names none.
  public var user: String
  /// The widget kind or app identifier the donation names.
  public var kind: String
  /// The intent type, or nil for a donation without one.
  public var intent: String?
  /// The donated parameters, sorted by key (then value).
  public private(set) var parameters: [Parameter]
  /// The row's own UTC offset in seconds east of UTC, or nil when it has none (then the
  /// run's time zone decides its local time; `UTCOffset`).
  public var utcOffset: Int32?

  /// The user a log row gets when it names none.
  public static let defaultUser = "default"

  /// A donation; `parameters` are sorted by key. Keys should be unique (readers enforce it).
  public init(
    timestamp: Instant, user: String = Donation.defaultUser, kind: String, intent: String? = nil,
    parameters: [Parameter] = [], utcOffset: Int32? = nil
  ) {
    self.utcOffset = utcOffset
    self.timestamp = timestamp
    self.user = user
    self.kind = kind
    self.intent = intent
    self.parameters = parameters.sorted()
  }

  /// The value donated for `key`, or nil. O(p).
  public func value(of key: String) -> String? {
    parameters.first { $0.key == key }?.value
  }

  /// `2026-03-02T08:01:05Z alice RecentPurchases ViewRecentPurchases card=Acme`.
  public var description: String {
    var text = "\(timestamp) \(user) \(kind)"
    if let intent { text += " \(intent)" }
    if !parameters.isEmpty { text += " " + ParameterText.encode(parameters) }
    return text
  }
}

/// One parameter of a `DonationLog`, as ids into its `parameterKeys` and
/// `parameterValues` interners. Ordered by key id, then value id.
public struct ParameterID: Hashable, Sendable, Comparable {
  public var key: Int32
  public var value: Int32

  public init(key: Int32, value: Int32) {
    self.key = key
    self.value = value
  }

  public static func < (a: ParameterID, b: ParameterID) -> Bool {
    a.key != b.key ? a.key < b.key : a.value < b.value
  }
}
