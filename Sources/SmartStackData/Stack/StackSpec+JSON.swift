import SmartStackBase

extension StackSpec {
  /// The stack in the stack-file format `read(bytes:file:)` accepts (pretty-printed,
  /// instances in order, intents sorted by name, then the rules when there are any,
  /// trailing newline).
  public func jsonText() -> String {
    let instanceValues: [JSONNode] = instances.map { instance in
      var members = [JSONMember("id", .string(instance.id)), JSONMember("kind", .string(instance.kind))]
      if !instance.configuration.isEmpty {
        members.append(
          JSONMember("configuration", .object(instance.configuration.map { JSONMember($0.key, .string($0.value)) })))
      }
      return JSONNode(.object(members))
    }
    var root = [JSONMember("instances", .array(instanceValues))]
    let intents = catalog.intents
    if !intents.isEmpty {
      root.append(
        JSONMember(
          "intents",
          .object(
            intents.map { name in
              JSONMember(
                name,
                .array(catalog.combinations(of: name).map { JSONNode(.array($0.map { JSONNode(.string($0)) })) }))
            })))
    }
    if let rules { root += rules.jsonMembers }
    return JSONValue.object(root).serialized(pretty: true) + "\n"
  }
}
