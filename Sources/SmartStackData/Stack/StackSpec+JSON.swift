import SmartStackBase

extension StackSpec {
  /// The stack in the stack-file format `read(bytes:file:)` accepts (pretty-printed,
  /// instances in order, intents sorted by name, then the rules when there are any,
  /// trailing newline).
  public func jsonText() -> String {
    var root = [JSONMember("instances", instancesJSON)]
    if !catalog.intents.isEmpty { root.append(JSONMember("intents", catalog.jsonValue)) }
    if let rules { root += rules.jsonMembers }
    return JSONValue.object(root).serialized(pretty: true) + "\n"
  }

  /// The `instances` array of a stack file (and of a scenario's `stack`), in order.
  public var instancesJSON: JSONValue {
    .array(
      instances.map { instance in
        var members = [JSONMember("id", .string(instance.id)), JSONMember("kind", .string(instance.kind))]
        if !instance.configuration.isEmpty {
          members.append(
            JSONMember("configuration", .object(instance.configuration.map { JSONMember($0.key, .string($0.value)) })))
        }
        return JSONNode(.object(members))
      })
  }
}

extension IntentCatalog {
  /// The `intents` object of a stack or scenario file: intent name → its supported
  /// parameter combinations, intents sorted by name.
  public var jsonValue: JSONValue {
    .object(
      intents.map { name in
        JSONMember(name, .array(combinations(of: name).map { JSONNode(.array($0.map { JSONNode(.string($0)) })) }))
      })
  }
}
