package io.github.uidgen.jackson;

import tools.jackson.core.JsonParser;
import tools.jackson.core.JsonToken;
import tools.jackson.databind.BeanProperty;
import tools.jackson.databind.DeserializationContext;
import tools.jackson.databind.DeserializationFeature;
import tools.jackson.databind.JavaType;
import tools.jackson.databind.ValueDeserializer;
import tools.jackson.databind.deser.std.StdDeserializer;

/**
 * Reads the ID of a {@link UidAsString} property from a JSON string or number, and every ID of an annotated array,
 * collection, {@code Optional} or map (its values): containers are left to Jackson's own deserializers, with this
 * one for their elements. A property of any other type is refused when the mapper first meets it.
 */
public final class UidAsStringDeserializer extends StdDeserializer<Object> {

	/** Jackson creates it from the annotation; it is contextualized per property before use. */
	public UidAsStringDeserializer() {
		super(Object.class);
	}

	@Override
	public ValueDeserializer<?> createContextual(DeserializationContext context, BeanProperty property) {
		JavaType type = (property != null) ? property.getType() : context.getContextualType();
		if (type == null || !IdTypes.holdsIds(type)) {
			String name = (property != null) ? "property '" + property.getName() + "'" : "the value";
			return context.reportBadDefinition(type, IdTypes.ACCEPTED + "; " + name + " is a "
					+ ((type != null) ? type.toCanonical() : "value of unknown type"));
		}
		return forType(context, type, property);
	}

	@Override
	public Object deserialize(JsonParser parser, DeserializationContext context) {
		// Only reached uncontextualized, which Jackson never does for a property.
		return new IdDeserializer(false).deserialize(parser, context);
	}

	private static ValueDeserializer<?> forType(DeserializationContext context, JavaType type, BeanProperty property) {
		Class<?> raw = type.getRawClass();
		if (raw == long.class || raw == Long.class) {
			return new IdDeserializer(raw == long.class);
		}
		if (raw == long[].class) {
			return new IdArrayDeserializer();
		}
		ValueDeserializer<?> content = forType(context, type.getContentType(), property);
		return context.findContextualValueDeserializer(type.withContentValueHandler(content), property);
	}

	/** One ID, from a string or a number. */
	static final class IdDeserializer extends StdDeserializer<Long> {

		private final boolean primitive;

		IdDeserializer(boolean primitive) {
			super(primitive ? Long.TYPE : Long.class);
			this.primitive = primitive;
		}

		@Override
		public Long deserialize(JsonParser parser, DeserializationContext context) {
			return read(parser, context, handledType());
		}

		@Override
		public Object getNullValue(DeserializationContext context) {
			if (!this.primitive) {
				return null;
			}
			if (context.isEnabled(DeserializationFeature.FAIL_ON_NULL_FOR_PRIMITIVES)) {
				return context.reportInputMismatch(this, "null for an ID of primitive type long");
			}
			return 0L;
		}

		static long read(JsonParser parser, DeserializationContext context, Class<?> type) {
			JsonToken token = parser.currentToken();
			if (token == JsonToken.VALUE_STRING) {
				String text = parser.getString();
				try {
					return Long.parseLong(text.strip());
				}
				catch (NumberFormatException ex) {
					return (Long) context.handleWeirdStringValue(type, text,
							"not a decimal ID (digits only, at most " + Long.MAX_VALUE + ")");
				}
			}
			if (token == JsonToken.VALUE_NUMBER_INT) {
				if (parser.getNumberType() == JsonParser.NumberType.BIG_INTEGER) {
					return (Long) context.handleWeirdNumberValue(type, parser.getBigIntegerValue(),
							"out of the range of a long ID");
				}
				return parser.getLongValue();
			}
			return (Long) context.handleUnexpectedToken(type, parser);
		}

	}

	/** {@code long[]}: Jackson's own reader for it takes no element deserializer. */
	static final class IdArrayDeserializer extends StdDeserializer<long[]> {

		IdArrayDeserializer() {
			super(long[].class);
		}

		@Override
		public long[] deserialize(JsonParser parser, DeserializationContext context) {
			if (!parser.isExpectedStartArrayToken()) {
				return (long[]) context.handleUnexpectedToken(long[].class, parser);
			}
			long[] ids = new long[8];
			int size = 0;
			JsonToken token;
			while ((token = parser.nextToken()) != JsonToken.END_ARRAY) {
				if (token == JsonToken.VALUE_NULL) {
					return context.reportInputMismatch(this, "null in an array of IDs of primitive type long");
				}
				if (size == ids.length) {
					ids = java.util.Arrays.copyOf(ids, size * 2);
				}
				ids[size++] = IdDeserializer.read(parser, context, Long.TYPE);
			}
			return java.util.Arrays.copyOf(ids, size);
		}

	}

}
