import SmartStackBase

/// A donation log held column by column, with every name interned to a dense `Int32` id.
///
/// Row `i` is the donation at `timestamps[i]` by user `users[i]` of kind `kinds[i]`, with
/// intent `intents[i]` (-1 for none) and parameter set `parameterSets[i]`, an index into
/// `parameterTable` (set 0 is the empty set). A parameter set is an array of
/// `ParameterID`s sorted by (key id, value id), keys unique.
///
/// **Order.** Rows are sorted by time, *stably*: donations at the same millisecond keep
/// the order in which they came in (file order for the readers, array order for
/// `init(_:)`).
///
/// **Canonical ids.** Whatever order the input came in, ids are assigned in order of first
/// appearance in the sorted rows: user, kind and intent ids by the first row naming them;
/// parameter set ids by the first row using them (after the empty set 0); parameter key
/// and value ids by walking the sets in id order, each set's pairs in (key, value) text
/// order. Two logs with the same donations in the same order are therefore equal (`==`),
/// which makes write-then-read round trips exact.
///
/// **Users.** Replay iterates people one at a time: `userOrder` lists the rows grouped by
/// user id and by time within a user, and `userRanges[u]` is user `u`'s part of it.
public struct DonationLog: Sendable, Hashable {
  /// Epoch milliseconds (UTC), non-decreasing.
  public let timestamps: [Int64]
  /// Ids into `userNames`.
  public let users: [Int32]
  /// Ids into `kindNames`.
  public let kinds: [Int32]
  /// Ids into `intentNames`, or -1 for a donation without an intent.
  public let intents: [Int32]
  /// Indices into `parameterTable`; 0 is the empty set.
  public let parameterSets: [Int32]
  /// The distinct parameter sets; `parameterTable[0] == []`.
  public let parameterTable: [[ParameterID]]
  /// Each row's own UTC offset in seconds east of UTC, `UTCOffset.none` for a row without
  /// one; empty when no row has one (`utcOffset(_:)` reads it either way). Local-time
  /// features of a row use its own offset when it has one and the run's zone otherwise.
  public let utcOffsets: [Int32]

  public let userNames: Interner
  public let kindNames: Interner
  public let intentNames: Interner
  public let parameterKeys: Interner
  public let parameterValues: Interner

  /// All row indices, grouped by user id (ascending) and by row (time) within a user.
  public let userOrder: [Int32]
  /// `userRanges[u]` is the range of `userOrder` holding user `u`'s rows.
  public let userRanges: [Range<Int>]

  /// The number of donations. O(1).
  public var count: Int { timestamps.count }

  /// True when the log holds no donation.
  public var isEmpty: Bool { timestamps.isEmpty }

  /// An empty log.
  public init() { self.init([]) }

  /// A log of `donations`, sorted stably by time (equal timestamps keep array order).
  ///
  /// - Complexity: O(n log n) for n donations (O(n) when already in time order).
  public init(_ donations: [Donation]) {
    var builder = DonationLogBuilder()
    builder.reserve(donations.count)
    var pairs: [ParameterID] = []
    for donation in donations {
      pairs.removeAll(keepingCapacity: true)
      for p in donation.parameters {
        pairs.append(
          ParameterID(
            key: builder.parameterKeys.intern(p.key), value: builder.parameterValues.intern(p.value)
          ))
      }
      pairs.sort()
      builder.append(
        timestamp: donation.timestamp.milliseconds,
        user: builder.userNames.intern(donation.user),
        kind: builder.kindNames.intern(donation.kind),
        intent: donation.intent.map { builder.intentNames.intern($0) } ?? -1,
        parameterSet: builder.internSet(pairs),
        utcOffset: donation.utcOffset ?? UTCOffset.none)
    }
    self = builder.build()
  }

  /// A log of these columns (rows in time order, ids canonical). `userGroups` is
  /// `groupByUser(users, userCount: userNames.count)` when the caller made it already
  /// (`DonationLogBuilder.build()`, beside other work); nil: it is made here.
  init(
    timestamps: [Int64], users: [Int32], kinds: [Int32], intents: [Int32],
    parameterSets: [Int32], parameterTable: [[ParameterID]], userNames: Interner,
    kindNames: Interner, intentNames: Interner, parameterKeys: Interner,
    parameterValues: Interner, utcOffsets: [Int32] = [], userGroups: UserGroups? = nil
  ) {
    self.timestamps = timestamps
    self.users = users
    self.kinds = kinds
    self.intents = intents
    self.parameterSets = parameterSets
    self.parameterTable = parameterTable
    self.userNames = userNames
    self.kindNames = kindNames
    self.intentNames = intentNames
    self.parameterKeys = parameterKeys
    self.parameterValues = parameterValues
    self.utcOffsets = utcOffsets
    let groups = userGroups ?? Self.groupByUser(users, userCount: userNames.count)
    (userOrder, userRanges) = (groups.order, groups.ranges)
  }

  /// Donation `i`, with its names as text. O(p log p) for p parameters.
  public subscript(i: Int) -> Donation {
    Donation(
      timestamp: Instant(milliseconds: timestamps[i]),
      user: userNames[users[i]],
      kind: kindNames[kinds[i]],
      intent: intents[i] < 0 ? nil : intentNames[intents[i]],
      parameters: parameters(ofSet: parameterSets[i]),
      utcOffset: utcOffset(i) == UTCOffset.none ? nil : utcOffset(i))
  }

  /// All donations, in row (time) order.
  public var donations: [Donation] { (0..<count).map { self[$0] } }

  /// Row `i`'s own UTC offset (seconds east of UTC), or `UTCOffset.none`. O(1).
  @inlinable public func utcOffset(_ i: Int) -> Int32 {
    utcOffsets.isEmpty ? UTCOffset.none : utcOffsets[i]
  }

  /// The instant of row `i`. O(1).
  public func instant(_ i: Int) -> Instant { Instant(milliseconds: timestamps[i]) }

  /// Parameter set `set` as text pairs, sorted by key. O(p log p).
  public func parameters(ofSet set: Int32) -> [Parameter] {
    parameterTable[Int(set)].map { Parameter(parameterKeys[$0.key], parameterValues[$0.value]) }
      .sorted()
  }

  /// The rows of user `user`, in time order. O(1).
  public func rows(ofUser user: Int32) -> ArraySlice<Int32> { userOrder[userRanges[Int(user)]] }

  /// The rows of user `user`, in time order, as `Int`s. O(k) for k rows.
  public func indices(ofUser user: Int32) -> [Int] { rows(ofUser: user).map { Int($0) } }

  /// The rows grouped by user: `order` lists the rows user by user (each user's in time
  /// order), user `u`'s at `ranges[u]`.
  typealias UserGroups = (order: [Int32], ranges: [Range<Int>])

  /// A counting sort of the rows by user: stable, so each user's rows stay in time order.
  /// O(rows + users).
  static func groupByUser(_ users: [Int32], userCount: Int) -> UserGroups {
    var starts = [Int](repeating: 0, count: userCount + 1)
    for u in users { starts[Int(u) + 1] += 1 }
    for u in 0..<userCount { starts[u + 1] += starts[u] }
    let ranges = (0..<userCount).map { starts[$0]..<starts[$0 + 1] }
    var next = starts
    var order = [Int32](repeating: 0, count: users.count)
    for (row, u) in users.enumerated() {
      order[next[Int(u)]] = Int32(truncatingIfNeeded: row)
      next[Int(u)] += 1
    }
    return (order, ranges)
  }
}
