package io.github.uidgen.samples.sharded;

import java.time.Instant;
import java.time.LocalDate;
import java.time.ZoneOffset;
import java.time.format.DateTimeParseException;
import java.util.List;
import java.util.Map;
import java.util.stream.IntStream;

import io.github.uidgen.UidGenerator;
import io.github.uidgen.UidLayout;

import org.springframework.http.HttpStatus;
import org.springframework.web.bind.annotation.GetMapping;
import org.springframework.web.bind.annotation.PostMapping;
import org.springframework.web.bind.annotation.RequestParam;
import org.springframework.web.bind.annotation.RestController;
import org.springframework.web.server.ResponseStatusException;

/**
 * Orders and items on sharded tables: {@code POST /orders?item=}, {@code GET /orders?from=&to=} (ISO instants),
 * {@code POST /items?name=} and {@code POST /items/keyed?count=}. IDs are JSON strings, safe for JavaScript.
 */
@RestController
class OrderController {

	private final OrderMapper orders;

	private final ItemMapper items;

	private final UidLayout layout;

	OrderController(OrderMapper orders, ItemMapper items, UidGenerator uidGenerator) {
		this.orders = orders;
		this.items = items;
		this.layout = uidGenerator.layout();
	}

	@PostMapping("/orders")
	Map<String, String> createOrder(@RequestParam String item) {
		Order order = new Order(item);
		this.orders.insert(order);
		return Map.of("id", String.valueOf(order.getId()), "item", item);
	}

	/**
	 * The orders issued between two instants: the instants become the first and last IDs of their time units. The
	 * window is cut to the years that have tables, since {@code UID_INTERVAL} refuses a range no table can hold.
	 */
	@GetMapping("/orders")
	List<Map<String, String>> ordersBetween(@RequestParam String from, @RequestParam String to) {
		Instant start = instant("from", from);
		Instant end = instant("to", to);
		if (start.isAfter(end)) {
			throw new ResponseStatusException(HttpStatus.BAD_REQUEST, "Parameter 'from' (" + start
					+ ") must not be after 'to' (" + end + ")");
		}
		long firstMillis = Math.max(start.toEpochMilli(), startOfYear(ShardedSchema.FIRST_YEAR));
		long lastMillis = Math.min(end.toEpochMilli(), startOfYear(ShardedSchema.LAST_YEAR + 1) - 1);
		if (firstMillis > lastMillis) {
			throw new ResponseStatusException(HttpStatus.BAD_REQUEST, "Orders are kept in one table per year from "
					+ ShardedSchema.FIRST_YEAR + " to " + ShardedSchema.LAST_YEAR + " (sharding.yaml), and the window "
					+ start + " to " + end + " lies outside them");
		}
		long first = this.layout.compose(this.layout.toUnit(firstMillis), 0, 0);
		long last = this.layout.compose(this.layout.toUnit(lastMillis) + 1, 0, 0) - 1;
		return this.orders.between(first, last)
			.stream()
			.map((order) -> Map.of("id", String.valueOf(order.getId()), "item", order.getItem()))
			.toList();
	}

	@PostMapping("/items")
	Map<String, String> createItem(@RequestParam String name) {
		Item item = new Item(name);
		this.items.insert(item);
		return Map.of("id", String.valueOf(item.getId()), "name", name);
	}

	/** One multi-row INSERT without IDs: ShardingSphere's UID key generator hands out one per row. */
	@PostMapping("/items/keyed")
	Map<String, Integer> createKeyedItems(@RequestParam(defaultValue = "3") int count) {
		if (count < 1 || count > 100) {
			throw new ResponseStatusException(HttpStatus.BAD_REQUEST, "count must be between 1 and 100, but was "
					+ count);
		}
		List<String> names = IntStream.range(0, count).mapToObj((n) -> "keyed-" + n).toList();
		return Map.of("inserted", this.items.insertNames(names));
	}

	private static long startOfYear(int year) {
		return LocalDate.of(year, 1, 1).atStartOfDay(ZoneOffset.UTC).toInstant().toEpochMilli();
	}

	private static Instant instant(String parameter, String value) {
		try {
			return Instant.parse(value);
		}
		catch (DateTimeParseException ex) {
			throw new ResponseStatusException(HttpStatus.BAD_REQUEST, "Parameter '" + parameter + "' must be an "
					+ "ISO-8601 instant such as 2026-03-01T00:00:00Z, but was '" + value + "'");
		}
	}

}
