package io.github.uidgen.jackson;

import tools.jackson.core.JsonGenerator;
import tools.jackson.databind.SerializationContext;
import tools.jackson.databind.module.SimpleModule;
import tools.jackson.databind.ser.std.StdSerializer;
import tools.jackson.databind.ser.std.ToStringSerializer;

/**
 * A Jackson module that writes every {@code long} and {@code Long} as a JSON string, for services whose JSON goes to
 * JavaScript clients and whose IDs are not all annotated with {@link UidAsString}.
 *
 * <p>It changes every {@code long} value the mapper writes, IDs or not (counts, epoch milliseconds), which is
 * usually what a JavaScript client needs anyway: any of them above 2^53 would lose digits as a number. Reading is
 * left to Jackson, which accepts both strings and numbers for a {@code long}.
 */
public final class UidJacksonModule extends SimpleModule {

	private static final long serialVersionUID = 1L;

	private UidJacksonModule() {
		super(UidJacksonModule.class.getName());
		addSerializer(Long.class, ToStringSerializer.instance);
		addSerializer(Long.TYPE, ToStringSerializer.instance);
		addSerializer(long[].class, new LongArrayAsStringsSerializer());
	}

	/**
	 * Returns a module that writes every {@code long} and {@code Long} as a JSON string.
	 * @return the module, to register on a {@code JsonMapper.builder()}
	 */
	public static UidJacksonModule allLongsAsStrings() {
		return new UidJacksonModule();
	}

	/** Jackson writes {@code long[]} with a serializer of its own, which the {@code long} one does not reach. */
	private static final class LongArrayAsStringsSerializer extends StdSerializer<long[]> {

		LongArrayAsStringsSerializer() {
			super(long[].class);
		}

		@Override
		public void serialize(long[] values, JsonGenerator generator, SerializationContext context) {
			generator.writeStartArray(values, values.length);
			for (long value : values) {
				generator.writeString(Long.toString(value));
			}
			generator.writeEndArray();
		}

	}

}
