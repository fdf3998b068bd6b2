package io.github.uidgen.text;

import java.time.DateTimeException;
import java.time.Instant;
import java.time.LocalDateTime;
import java.time.ZoneId;
import java.time.ZoneOffset;

import io.github.uidgen.DecodedUid;
import io.github.uidgen.UidLayout;
import io.github.uidgen.UidTimeUnit;

/**
 * The ID's own parts spelled out for a person: its time in ISO-8601 basic format, then (with data-center bits) the
 * data center, the worker and the sequence, for example {@code 20261125T194156.123-7-42}. The time is in UTC, or in a
 * zone, with the zone's offset written after it ({@code 20261126T034156.123+0800-7-42}) so that every text names one
 * instant, even in the hour a clock is set back. Milliseconds appear only for layouts that count in milliseconds.
 */
public final class ReadableUidFormat implements UidFormat {

	private final UidLayout layout;

	private final ZoneId zone;

	private final boolean utc;

	private final boolean millis;

	private final String name;

	/**
	 * Creates the form.
	 * @param layout the layout whose IDs it writes
	 * @param zone the zone of the time, {@code ZoneOffset.UTC} for UTC without an offset in the text
	 */
	public ReadableUidFormat(UidLayout layout, ZoneId zone) {
		int lastYear = LocalDateTime.ofInstant(layout.getExpiry().minusMillis(1), ZoneOffset.UTC).getYear();
		if (lastYear > 9998 || layout.getEpoch().getYear() < 1) {
			throw new IllegalArgumentException("The readable form writes years of four digits, but the layout runs from "
					+ layout.getEpoch() + " to " + layout.getExpiry() + "; choose another form for it");
		}
		this.layout = layout;
		this.zone = zone;
		this.utc = ZoneOffset.UTC.equals(zone.normalized());
		this.millis = layout.getTimeUnit() == UidTimeUnit.MILLISECONDS;
		this.name = "readable" + (this.utc ? "" : " (" + zone.getId() + ")");
	}

	@Override
	public String name() {
		return this.name;
	}

	@Override
	public String format(long uid) {
		if (uid < 0 || uid > this.layout.maxUid()) {
			throw new IllegalArgumentException("ID " + uid + " lies outside 0 to " + this.layout.maxUid());
		}
		DecodedUid parts = this.layout.decode(uid);
		Instant time = parts.timestamp();
		ZoneOffset offset = this.utc ? ZoneOffset.UTC : this.zone.getRules().getOffset(time);
		LocalDateTime local = LocalDateTime.ofEpochSecond(time.getEpochSecond(), time.getNano(), offset);
		StringBuilder text = new StringBuilder(40);
		pad(text, local.getYear(), 4);
		pad(text, local.getMonthValue(), 2);
		pad(text, local.getDayOfMonth(), 2);
		text.append('T');
		pad(text, local.getHour(), 2);
		pad(text, local.getMinute(), 2);
		pad(text, local.getSecond(), 2);
		if (this.millis) {
			text.append('.');
			pad(text, local.getNano() / 1_000_000, 3);
		}
		if (!this.utc) {
			int seconds = offset.getTotalSeconds();
			text.append((seconds < 0) ? '-' : '+');
			pad(text, Math.abs(seconds) / 3600, 2);
			pad(text, Math.abs(seconds) / 60 % 60, 2);
		}
		if (parts.datacenterId() != null) {
			text.append('-').append(parts.datacenterId());
		}
		return text.append('-').append(parts.workerId()).append('-').append(parts.sequence()).toString();
	}

	@Override
	public long parse(CharSequence text) {
		Reader reader = new Reader(text);
		if (text.length() == 0) {
			throw reader.refused("the text is empty");
		}
		if (text.length() > 64) {
			throw reader.refused(UidTextException.length(text.length()) + "; readable IDs have at most 64");
		}
		int year = reader.digits(4, "year");
		int month = reader.digits(2, "month");
		int day = reader.digits(2, "day");
		reader.expect('T', "'T' between the date and the time");
		int hour = reader.digits(2, "hour");
		int minute = reader.digits(2, "minute");
		int second = reader.digits(2, "second");
		int milli = 0;
		if (this.millis) {
			reader.expect('.', "'.' before the milliseconds");
			milli = reader.digits(3, "milliseconds");
		}
		ZoneOffset offset = ZoneOffset.UTC;
		if (!this.utc) {
			char sign = reader.next("the offset from UTC, such as +0800");
			if ((sign != '+' && sign != '-') || !reader.digitsAhead(4)) {
				throw reader.refused("the time must be followed by its offset from UTC in " + this.zone.getId()
						+ ", such as +0800");
			}
			int hours = reader.digits(2, "offset hours");
			int minutes = reader.digits(2, "offset minutes");
			int seconds = (hours * 3600 + minutes * 60) * ((sign == '-') ? -1 : 1);
			try {
				offset = ZoneOffset.ofTotalSeconds(seconds);
			}
			catch (DateTimeException ex) {
				throw reader.refused("the offset is out of range: " + ex.getMessage());
			}
		}
		Instant time;
		try {
			time = LocalDateTime.of(year, month, day, hour, minute, second, milli * 1_000_000).toInstant(offset);
		}
		catch (DateTimeException ex) {
			throw reader.refused("its time is not a valid date and time: " + ex.getMessage());
		}
		if (!this.utc && !this.zone.getRules().getOffset(time).equals(offset)) {
			throw reader.refused("the offset " + offset.getId() + " is not the offset of " + this.zone.getId()
					+ " at that time (" + this.zone.getRules().getOffset(time).getId() + ")");
		}
		Long datacenter = null;
		if (this.layout.getDatacenterBits() > 0) {
			datacenter = reader.field("the data-center ID", this.layout.getMaxDatacenterId());
		}
		long worker = reader.field("the worker ID", this.layout.getMaxWorkerId());
		long sequence = reader.field("the sequence", this.layout.getMaxSequence());
		if (reader.position < text.length()) {
			throw reader.refused("unexpected '" + text.charAt(reader.position) + "' at position "
					+ (reader.position + 1) + " after the sequence");
		}
		long unit = this.layout.toUnit(time.toEpochMilli());
		if (unit < 0 || unit > this.layout.getMaxTime()) {
			throw reader.refused("its time lies outside the layout, which runs from " + this.layout.getEpoch()
					+ " to " + this.layout.getExpiry());
		}
		if (this.layout.startMillis(unit) != time.toEpochMilli()) {
			throw reader.refused("its time is not the start of one of the layout's time units");
		}
		return (datacenter != null) ? this.layout.compose(unit, datacenter, worker, sequence)
				: this.layout.compose(unit, worker, sequence);
	}

	private static void pad(StringBuilder text, int value, int width) {
		String digits = Integer.toString(value);
		for (int i = digits.length(); i < width; i++) {
			text.append('0');
		}
		text.append(digits);
	}

	/** Reads a text from left to right, refusing it with the position of what is wrong. */
	private final class Reader {

		private final CharSequence text;

		private int position;

		Reader(CharSequence text) {
			this.text = text;
		}

		char next(String what) {
			if (this.position >= this.text.length()) {
				throw refused("it ends before " + what);
			}
			return this.text.charAt(this.position++);
		}

		boolean digitsAhead(int count) {
			if (this.position + count > this.text.length()) {
				return false;
			}
			for (int i = this.position; i < this.position + count; i++) {
				if (this.text.charAt(i) < '0' || this.text.charAt(i) > '9') {
					return false;
				}
			}
			return true;
		}

		void expect(char expected, String what) {
			char c = next(what);
			if (c != expected) {
				throw refused("expected " + what + " at position " + this.position + ", found '" + c + "'");
			}
		}

		int digits(int count, String what) {
			int value = 0;
			for (int i = 0; i < count; i++) {
				char c = next("the " + what);
				if (c < '0' || c > '9') {
					throw refused("expected a digit of the " + what + " at position " + this.position + ", found '" + c
							+ "'");
				}
				value = value * 10 + (c - '0');
			}
			return value;
		}

		/** A '-' and a decimal number from 0 to max. */
		long field(String what, long max) {
			expect('-', "'-' before " + what);
			int start = this.position;
			long value = 0;
			while (this.position < this.text.length() && this.text.charAt(this.position) >= '0'
					&& this.text.charAt(this.position) <= '9') {
				value = value * 10 + (this.text.charAt(this.position++) - '0');
				if (value > max) {
					throw refused(what + " is larger than this layout's largest, " + max);
				}
			}
			if (this.position == start) {
				throw refused("expected " + what + " (digits) at position " + (start + 1));
			}
			return value;
		}

		UidTextException refused(String reason) {
			return new UidTextException(ReadableUidFormat.this.name, this.text, reason);
		}

	}

}
