import SmartStackBase

/// The relevance timelines of several widget instances, as read from a timeline JSON file.
///
/// Format (`smartstack relevance`):
/// ```json
/// {"instances": [
///   {"id": "card", "kind": "RecentPurchases",
///    "entries": [
///      {"date": "2026-01-05T09:00:00Z", "relevance": {"score": 10, "duration": 3600}},
///      {"date": "2026-01-05T10:00:00Z"}
///    ]}
/// ]}
/// ```
/// - `id` (required, non-empty) names the instance in outputs; unique in the file, except
///   that the same id may be given once per person with `user`;
/// - `user` (optional, non-empty) makes the timeline one person's: replay applies it to
///   that user's stack only (simulated people each receive their own entries, which
///   `simulate --emit-log` writes this way). Without it the timeline is every person's.
///   An id is either every person's or per person, not both;
/// - `kind` (optional, non-empty when given) defaults to `id`; it groups instances for
///   `--scope kind`;
/// - `entries` (required, may be empty), each with `date` (required, ISO 8601; a naive
///   local time is read in the file's time zone) and `relevance` (missing or `null` = nil
///   relevance, "no change");
/// - `relevance.score` (required number, within Float range, since WidgetKit's score is
///   a `Float`) and `relevance.duration` (seconds, fractions allowed and rounded to the
///   millisecond, default 0 = until the next non-nil entry; negative or more than 366
///   days is an error);
/// - unknown keys anywhere are errors (they are likely typos, e.g. `"durations"`);
/// - an empty `instances` array is valid.
public struct TimelineFile: Sendable, Hashable {
  /// One widget instance's timeline.
  public struct Instance: Sendable, Hashable {
    /// The instance's name, unique in the file.
    public var id: String
    /// The widget kind; the `id` when the file gives none.
    public var kind: String
    /// The entries in file order (`RelevanceTimeline` sorts them stably by date).
    public var entries: [RelevanceEntry]
    /// The person (donation-log `user`) whose stack this timeline belongs to; nil for
    /// every person's.
    public var user: String?

    public init(id: String, kind: String? = nil, entries: [RelevanceEntry], user: String? = nil) {
      self.id = id
      self.kind = kind ?? id
      self.entries = entries
      self.user = user
    }
  }

  /// The instances in file order.
  public var instances: [Instance]

  public init(instances: [Instance]) {
    self.instances = instances
  }

  /// True when some instance belongs to one person (`user` is set).
  public var hasPersonalTimelines: Bool { instances.contains { $0.user != nil } }

  /// The timelines that apply to `user`'s stack: every person's and `user`'s own, in file
  /// order, with `user` cleared. Ids are then unique.
  ///
  /// - Complexity: O(instances + entries).
  public func timelines(ofUser user: String) -> TimelineFile {
    TimelineFile(
      instances: instances.compactMap { instance in
        guard instance.user == nil || instance.user == user else { return nil }
        var own = instance
        own.user = nil
        return own
      })
  }

  /// Dense kind indices: `indices[i]` is the index of instance `i`'s kind in `kinds`,
  /// where `kinds` lists the distinct kinds in order of first appearance in the file.
  ///
  /// - Complexity: O(n) expected.
  public func kindIndices() -> (indices: [Int], kinds: [String]) {
    var indexOfKind: [String: Int] = [:]
    var kinds: [String] = []
    var indices: [Int] = []
    indices.reserveCapacity(instances.count)
    for instance in instances {
      if let index = indexOfKind[instance.kind] {
        indices.append(index)
      } else {
        indexOfKind[instance.kind] = kinds.count
        indices.append(kinds.count)
        kinds.append(instance.kind)
      }
    }
    return (indices, kinds)
  }
}
