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
/// - `id` (required, non-empty, unique in the file) names the instance in outputs;
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

    public init(id: String, kind: String? = nil, entries: [RelevanceEntry]) {
      self.id = id
      self.kind = kind ?? id
      self.entries = entries
    }
  }

  /// The instances in file order.
  public var instances: [Instance]

  public init(instances: [Instance]) {
    self.instances = instances
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
