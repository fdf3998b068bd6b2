package io.github.uidgen.jackson;

import java.util.Collection;
import java.util.Map;
import java.util.Optional;

import io.github.uidgen.text.UidFormat;
import io.github.uidgen.text.UidFormats;
import tools.jackson.core.JsonGenerator;
import tools.jackson.databind.BeanProperty;
import tools.jackson.databind.JavaType;
import tools.jackson.databind.SerializationContext;
import tools.jackson.databind.ValueSerializer;
import tools.jackson.databind.ser.std.StdSerializer;

/**
 * Writes the ID of a {@link UidAsString} property as a JSON string, and every ID of an annotated array, collection,
 * {@code Optional} or map (its values), so that a {@code List<Long>} becomes an array of strings rather than one
 * string. A property of any other type is refused when the mapper first meets it.
 */
public final class UidAsStringSerializer extends StdSerializer<Object> {

	private final UidFormats formats;

	private final UidFormat form;

	/** Jackson creates it from the annotation when no {@link UidTextModule} is registered: the standalone forms. */
	public UidAsStringSerializer() {
		this(UidFormats.standalone());
	}

	UidAsStringSerializer(UidFormats formats) {
		this(formats, formats.defaultForm());
	}

	private UidAsStringSerializer(UidFormats formats, UidFormat form) {
		super(Object.class);
		this.formats = formats;
		this.form = form;
	}

	@Override
	public ValueSerializer<?> createContextual(SerializationContext context, BeanProperty property) {
		if (property != null && !IdTypes.holdsIds(property.getType())) {
			JavaType type = property.getType();
			return context.reportBadDefinition(type, IdTypes.ACCEPTED + "; property '" + property.getName()
					+ "' is a " + type.toCanonical());
		}
		try {
			return new UidAsStringSerializer(this.formats, IdText.of(this.formats, property));
		}
		catch (IllegalArgumentException ex) {
			return context.reportBadDefinition(Object.class, "@UidAsString on property '"
					+ ((property != null) ? property.getName() : "?") + "': " + ex.getMessage(), ex);
		}
	}

	@Override
	public void serialize(Object value, JsonGenerator generator, SerializationContext context) {
		write(value, generator, context);
	}

	@Override
	public boolean isEmpty(SerializationContext context, Object value) {
		if (value instanceof Collection<?> collection) {
			return collection.isEmpty();
		}
		if (value instanceof Map<?, ?> map) {
			return map.isEmpty();
		}
		if (value instanceof Optional<?> optional) {
			return optional.isEmpty();
		}
		if (value instanceof long[] array) {
			return array.length == 0;
		}
		if (value instanceof Object[] array) {
			return array.length == 0;
		}
		return value == null;
	}

	private void write(Object value, JsonGenerator generator, SerializationContext context) {
		if (value == null) {
			generator.writeNull();
		}
		else if (value instanceof Long id) {
			generator.writeString(this.form.format(id));
		}
		else if (value instanceof long[] ids) {
			generator.writeStartArray(ids, ids.length);
			for (long id : ids) {
				generator.writeString(this.form.format(id));
			}
			generator.writeEndArray();
		}
		else if (value instanceof Object[] values) {
			generator.writeStartArray(values, values.length);
			for (Object element : values) {
				write(element, generator, context);
			}
			generator.writeEndArray();
		}
		else if (value instanceof Collection<?> values) {
			generator.writeStartArray(values, values.size());
			for (Object element : values) {
				write(element, generator, context);
			}
			generator.writeEndArray();
		}
		else if (value instanceof Optional<?> optional) {
			write(optional.orElse(null), generator, context);
		}
		else if (value instanceof Map<?, ?> map) {
			generator.writeStartObject(map, map.size());
			for (Map.Entry<?, ?> entry : map.entrySet()) {
				Object key = entry.getKey();
				context.findKeySerializer(key.getClass(), null).serialize(key, generator, context);
				write(entry.getValue(), generator, context);
			}
			generator.writeEndObject();
		}
		else {
			context.reportBadDefinition(value.getClass(),
					IdTypes.ACCEPTED + "; it was given a " + value.getClass().getName(), null);
		}
	}

}
