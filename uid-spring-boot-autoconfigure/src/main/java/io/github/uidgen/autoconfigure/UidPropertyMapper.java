package io.github.uidgen.autoconfigure;

import java.util.List;
import java.util.function.Consumer;
import java.util.function.Function;
import java.util.stream.Collectors;

import io.github.uidgen.InvalidLayoutException;
import io.github.uidgen.InvalidSettingException;
import io.github.uidgen.LayoutField;
import io.github.uidgen.UidLayout;
import io.github.uidgen.UidTimeUnit;
import io.github.uidgen.migration.LeafLayout;

/**
 * Hands {@code uid.*} property values to the core builders, where the name of each property is known: a value a
 * builder refuses becomes a {@link UidPropertyException} that names that property, its value and the fix, so no
 * failure analyzer has to guess the property from a builder's setting name.
 */
final class UidPropertyMapper {

	private UidPropertyMapper() {
	}

	/**
	 * Passes a property's value to a builder's setter.
	 * @param <T> the type of the value
	 * @param property the property the value comes from, for example {@code uid.cached.boost-power}
	 * @param value the value as bound
	 * @param setter the builder's setter
	 * @throws UidPropertyException when the setter refuses the value
	 */
	static <T> void map(String property, T value, Consumer<T> setter) {
		apply(property, value, (bound) -> {
			setter.accept(bound);
			return null;
		});
	}

	/**
	 * Passes a property's value to a builder method that returns something.
	 * @param <T> the type of the value
	 * @param <R> the type of the result
	 * @param property the property the value comes from, for example {@code uid.segment.key}
	 * @param value the value as bound
	 * @param function the builder method
	 * @return what it returns
	 * @throws UidPropertyException when the method refuses the value
	 */
	static <T, R> R apply(String property, T value, Function<T, R> function) {
		try {
			return function.apply(value);
		}
		catch (InvalidSettingException ex) {
			throw refused(property, value, ex.getFix(), ex);
		}
	}

	/**
	 * Builds the ID layout from the layout properties, data-center bits included, and checks
	 * {@code uid.datacenter-id} against it.
	 * @param properties the bound properties
	 * @param nowMillis the time to check the epoch and the expiry against
	 * @return the layout
	 * @throws UidPropertyException naming the layout properties at fault when the layout is refused
	 */
	static UidLayout layout(UidProperties properties, long nowMillis) {
		UidLayout layout;
		try {
			UidLayout base = (properties.getLayoutPreset() == UidProperties.LayoutPreset.LEAF)
					? leafLayout(properties, nowMillis)
					: new UidLayout(properties.getTimeUnit(), properties.getEpoch(), properties.getTimeBits(),
							properties.getWorkerBits(), properties.getSeqBits(), nowMillis);
			layout = base.withDatacenterBits(properties.getDatacenterBits());
		}
		catch (InvalidLayoutException ex) {
			String names = names(ex.getFields());
			throw new UidPropertyException(names, ex.getValue(), "The uid ID layout is refused: " + ex.getMessage(),
					"Change " + names + ": " + ex.getFix() + ".", ex);
		}
		checkDatacenterId(layout, properties.getDatacenterId());
		return layout;
	}

	/**
	 * Returns the data-center ID the generator writes into its IDs: {@code uid.datacenter-id}, required once
	 * {@code uid.datacenter-bits} is above 0, else 0.
	 * @param properties the bound properties
	 * @return the data-center ID
	 */
	static long datacenterId(UidProperties properties) {
		return (properties.getDatacenterId() != null) ? properties.getDatacenterId() : 0;
	}

	/** Refuses a {@code uid.datacenter-id} the data-center bits cannot hold, in the words of the properties. */
	private static void checkDatacenterId(UidLayout layout, Long configured) {
		if (configured == null) {
			if (layout.getDatacenterBits() > 0) {
				throw new UidPropertyException("uid.datacenter-id", null, "uid.datacenter-bits is "
						+ layout.getDatacenterBits() + ", so every instance must say which data center it issues for, "
						+ "and uid.datacenter-id is not set; without it the instance would issue as data center 0, "
						+ "the same IDs as data center 0's own instances.",
						"Set uid.datacenter-id to this data center's ID, from 0 to " + layout.getMaxDatacenterId()
								+ ", different in each data center (0 for the one that ran without data-center bits), "
								+ "or set uid.datacenter-bits to 0 for a single data center.",
						null);
			}
			return;
		}
		long datacenterId = configured;
		try {
			layout.checkDatacenterId(datacenterId);
		}
		catch (InvalidLayoutException ex) {
			long max = layout.getMaxDatacenterId();
			int bits = layout.getDatacenterBits();
			String problem;
			String action;
			if (datacenterId < 0) {
				problem = "A data-center ID cannot be negative.";
				action = "Set uid.datacenter-id from 0 to " + max + ".";
			}
			else if (bits == 0) {
				int needed = 64 - Long.numberOfLeadingZeros(datacenterId);
				problem = "uid.datacenter-id is " + datacenterId + ", but uid.datacenter-bits is 0: the IDs have no "
						+ "data-center part to carry it.";
				action = "Set uid.datacenter-bits to " + needed + " or more (taken from the " + layout.getWorkerBits()
						+ " uid.worker-bits, the same in every data center), or remove uid.datacenter-id.";
			}
			else {
				int needed = 64 - Long.numberOfLeadingZeros(datacenterId);
				problem = "uid.datacenter-id " + datacenterId + " does not fit uid.datacenter-bits " + bits
						+ ", which hold data-center IDs 0 to " + max + ".";
				action = "Set uid.datacenter-id from 0 to " + max + ", or set uid.datacenter-bits to " + needed
						+ " or more in every data center before any of them issues IDs.";
			}
			throw new UidPropertyException("uid.datacenter-id", datacenterId, problem, action, ex);
		}
	}

	/**
	 * Returns Leaf's layout, refusing layout properties that say otherwise: a preset that silently overrode them
	 * would issue IDs in a layout the user did not ask for.
	 */
	private static UidLayout leafLayout(UidProperties properties, long nowMillis) {
		requirePreset("uid.time-unit", properties.getTimeUnit(), UidTimeUnit.MILLISECONDS);
		requirePreset("uid.epoch", properties.getEpoch(), UidLayout.DEFAULT_EPOCH);
		requirePreset("uid.time-bits", properties.getTimeBits(), LeafLayout.TIME_BITS);
		requirePreset("uid.worker-bits", properties.getWorkerBits(), LeafLayout.WORKER_BITS);
		requirePreset("uid.seq-bits", properties.getSeqBits(), LeafLayout.SEQ_BITS);
		return LeafLayout.layout(nowMillis);
	}

	private static void requirePreset(String property, Object value, Object presetValue) {
		if (!presetValue.equals(value)) {
			throw new UidPropertyException(property, value, "The uid setting " + property + " conflicts with "
					+ "uid.layout-preset=leaf, which is Meituan Leaf's layout: 41 bits of milliseconds since "
					+ LeafLayout.EPOCH + ", 10 worker bits, 12 sequence bits.",
					"Remove " + property + " (the preset sets the whole layout), or remove uid.layout-preset.");
		}
	}

	/**
	 * Explains a value refused by a core builder, for a check the auto-configuration runs itself.
	 * @param property the property at fault
	 * @param value its value as bound
	 * @param fix what to change, as the core builders word it
	 * @param cause the refusal, or {@code null}
	 * @return the exception to throw
	 */
	static UidPropertyException refused(String property, Object value, String fix, Throwable cause) {
		return new UidPropertyException(property, value, "The uid setting " + property + " is refused: " + fix + ".",
				"Change " + property + ": " + fix + ".", cause);
	}

	private static String names(List<LayoutField> fields) {
		return fields.stream().map(UidPropertyMapper::property).collect(Collectors.joining(", "));
	}

	private static String property(LayoutField field) {
		return switch (field) {
			case TIME_UNIT -> "uid.time-unit";
			case EPOCH -> "uid.epoch";
			case TIME_BITS -> "uid.time-bits";
			case WORKER_BITS -> "uid.worker-bits";
			case SEQ_BITS -> "uid.seq-bits";
			case DATACENTER_BITS -> "uid.datacenter-bits";
			case DATACENTER_ID -> "uid.datacenter-id";
		};
	}

}
