package io.github.uidgen.jackson;

import io.github.uidgen.text.UidFormat;
import io.github.uidgen.text.UidFormats;
import io.github.uidgen.text.UidTextException;
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

	private final UidFormats formats;

	/** Jackson creates it from the annotation when no {@link UidTextModule} is registered: the standalone forms. */
	public UidAsStringDeserializer() {
		this(UidFormats.standalone());
	}

	UidAsStringDeserializer(UidFormats formats) {
		super(Object.class);
		this.formats = formats;
	}

	@Override
	public ValueDeserializer<?> createContextual(DeserializationContext context, BeanProperty property) {
		JavaType type = (property != null) ? property.getType() : context.getContextualType();
		if (type == null || !IdTypes.holdsIds(type)) {
			String name = (property != null) ? "property '" + property.getName() + "'" : "the value";
			return context.reportBadDefinition(type, IdTypes.ACCEPTED + "; " + name + " is a "
					+ ((type != null) ? type.toCanonical() : "value of unknown type"));
		}
		UidFormat form;
		try {
			form = IdText.of(this.formats, property);
		}
		catch (IllegalArgumentException ex) {
			return context.reportBadDefinition(type, "@UidAsString on property '"
					+ ((property != null) ? property.getName() : "?") + "': " + ex.getMessage());
		}
		return forType(context, type, property, form);
	}

	@Override
	public Object deserialize(JsonParser parser, DeserializationContext context) {
		// Only reached uncontextualized, which Jackson never does for a property.
		return new IdDeserializer(false, this.formats.defaultForm()).deserialize(parser, context);
	}

	private static ValueDeserializer<?> forType(DeserializationContext context, JavaType type, BeanProperty property,
			UidFormat form) {
		Class<?> raw = type.getRawClass();
		if (raw == long.class || raw == Long.class) {
			return new IdDeserializer(raw == long.class, form);
		}
		if (raw == long[].class) {
			return new IdArrayDeserializer(form);
		}
		ValueDeserializer<?> content = forType(context, type.getContentType(), property, form);
		return context.findContextualValueDeserializer(type.withContentValueHandler(content), property);
	}

	/** One ID, from a string of the form, or from a number when the form is decimal. */
	static final class IdDeserializer extends StdDeserializer<Long> {

		private final boolean primitive;

		private final UidFormat form;

		IdDeserializer(boolean primitive, UidFormat form) {
			super(primitive ? Long.TYPE : Long.class);
			this.primitive = primitive;
			this.form = form;
		}

		@Override
		public Long deserialize(JsonParser parser, DeserializationContext context) {
			return read(parser, context, handledType(), this.form);
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

		static long read(JsonParser parser, DeserializationContext context, Class<?> type, UidFormat form) {
			JsonToken token = parser.currentToken();
			if (token == JsonToken.VALUE_STRING) {
				String text = parser.getString();
				try {
					return form.parse(text);
				}
				catch (UidTextException ex) {
					return (Long) context.handleWeirdStringValue(type, text, "not " + article(form.name()) + " " + form.name() + " ID: "
							+ ex.getReason());
				}
			}
			if (token == JsonToken.VALUE_NUMBER_INT && !IdText.readsNumbers(form)) {
				return (Long) context.handleWeirdNumberValue(type, parser.getNumberValue(), "IDs of the "
						+ form.name() + " form are read from strings of that form only, not from numbers");
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

		private final UidFormat form;

		IdArrayDeserializer(UidFormat form) {
			super(long[].class);
			this.form = form;
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
				ids[size++] = IdDeserializer.read(parser, context, Long.TYPE, this.form);
			}
			return java.util.Arrays.copyOf(ids, size);
		}

	}

	/** "an opaque ID", "a radix62 ID", as UidTextException writes them. */
	static String article(String form) {
		return (!form.isEmpty() && "aeiou".indexOf(form.charAt(0)) >= 0) ? "an" : "a";
	}

}
