import ArgumentParser
import Synchronization

/// The value type of each long option of a command, read from the command's own property
/// wrappers (`@Option var interval = DecimalOption(15)` is `interval`: `DecimalOption`), so that a
/// line whose value its type refuses is known to be refused without a parse of the whole command.
///
/// A parse builds every option's definition again (a millisecond and more on this machine, many
/// on a Pi); a type's `init(argument:)` is what that parse would call for the value, so both
/// agree on every value the type refuses. A value the type takes still needs the parse: ranges,
/// `validate()` and the lines it needs are the command's.
enum SettingValueTypes {
    /// The option types of `Command` by long name; options whose name or type cannot be read this
    /// way (a flag, a custom name) are absent and get the parse alone.
    static func of<Command: ParsableArguments>(_ type: Command.Type) -> [String: any ExpressibleByArgument.Type] {
        if let known = read.withLock({ $0[ObjectIdentifier(type)] }) { return known }
        var types: [String: any ExpressibleByArgument.Type] = [:]
        collect(from: type.init(), into: &types)
        read.withLock { $0[ObjectIdentifier(type)] = types }
        return types
    }

    /// The types read so far, by command.
    private static let read = Mutex<[ObjectIdentifier: [String: any ExpressibleByArgument.Type]]>([:])

    private static func collect(
        from arguments: any ParsableArguments, into types: inout [String: any ExpressibleByArgument.Type]
    ) {
        for child in Mirror(reflecting: arguments).children {
            guard let label = child.label, label.hasPrefix("_") else { continue }
            let wrapper = Swift.type(of: child.value)
            if let group = wrapper as? any ArgumentGroupType.Type {
                collect(from: group.groupType.init(), into: &types)
            } else if let option = wrapper as? any ArgumentValueType.Type, let valueType = option.argumentValueType {
                types[longName(ofProperty: String(label.dropFirst()))] = valueType
            }
        }
    }

    /// ArgumentParser's long name for a property: `maxPhotoMegapixels` is `max-photo-megapixels`.
    /// Names it would spell otherwise (runs of capitals) are not settings keys and are never asked.
    static func longName(ofProperty property: String) -> String {
        var name = ""
        for character in property {
            if character.isUppercase {
                name += "-" + character.lowercased()
            } else {
                name.append(character)
            }
        }
        return name
    }
}

extension OptionGroup: ArgumentGroupType {
    fileprivate static var groupType: any ParsableArguments.Type { Value.self }
}

extension Optional: WrappingArgumentValue {
    fileprivate static var wrappedArgumentType: (any ExpressibleByArgument.Type)? {
        Wrapped.self as? any ExpressibleByArgument.Type
    }
}

extension Array: WrappingArgumentValue {
    fileprivate static var wrappedArgumentType: (any ExpressibleByArgument.Type)? {
        Element.self as? any ExpressibleByArgument.Type
    }
}

extension Option: ArgumentValueType {
    fileprivate static var argumentValueType: (any ExpressibleByArgument.Type)? {
        if let direct = Value.self as? any ExpressibleByArgument.Type { return direct }
        return (Value.self as? any WrappingArgumentValue.Type)?.wrappedArgumentType
    }
}

/// A property wrapper that holds options of another type (`@OptionGroup`).
private protocol ArgumentGroupType {
    static var groupType: any ParsableArguments.Type { get }
}

/// An option whose every value goes through one type's `init(argument:)`.
private protocol ArgumentValueType {
    static var argumentValueType: (any ExpressibleByArgument.Type)? { get }
}

/// `Optional<Wrapped>` and `Array<Element>` seen through their one type parameter.
private protocol WrappingArgumentValue {
    static var wrappedArgumentType: (any ExpressibleByArgument.Type)? { get }
}
