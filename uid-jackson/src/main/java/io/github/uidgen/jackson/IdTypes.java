package io.github.uidgen.jackson;

import tools.jackson.databind.JavaType;

/**
 * Which declared types {@link UidAsString} applies to: {@code long} and {@code Long}, and arrays, collections,
 * {@code Optional}s and map values of them, nested to any depth.
 */
final class IdTypes {

	/** How a refused type is explained; names what would be accepted. */
	static final String ACCEPTED = "@UidAsString applies to long and Long IDs and to arrays, collections, Optionals "
			+ "and map values of them";

	private IdTypes() {
	}

	static boolean isId(JavaType type) {
		Class<?> raw = type.getRawClass();
		return raw == long.class || raw == Long.class;
	}

	static boolean holdsIds(JavaType type) {
		if (isId(type)) {
			return true;
		}
		if (type.isContainerType() || type.isReferenceType()) {
			JavaType content = type.getContentType();
			return content != null && holdsIds(content);
		}
		return false;
	}

}
