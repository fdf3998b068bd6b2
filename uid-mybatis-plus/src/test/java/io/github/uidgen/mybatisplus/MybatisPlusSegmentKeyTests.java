package io.github.uidgen.mybatisplus;

import java.util.ArrayList;
import java.util.List;
import java.util.stream.LongStream;

import io.github.uidgen.mybatisplus.app.Invoice;
import io.github.uidgen.mybatisplus.app.InvoiceMapper;
import io.github.uidgen.mybatisplus.app.MybatisPlusTestApplication;
import io.github.uidgen.mybatisplus.app.Order;
import io.github.uidgen.mybatisplus.app.OrderMapper;
import io.github.uidgen.testsupport.ScratchDatabase;
import org.junit.jupiter.api.Test;

import org.springframework.boot.WebApplicationType;
import org.springframework.boot.builder.SpringApplicationBuilder;
import org.springframework.context.ConfigurableApplicationContext;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * With {@code uid.generator=segment}, an entity annotated {@code @UidSegmentKey} is numbered by its own key and the
 * others by {@code uid.segment.key}: two dense sequences side by side, in one segment table on MariaDB.
 */
class MybatisPlusSegmentKeyTests {

	@Test
	void eachSegmentKeyCountsItsOwnEntities() {
		try (ScratchDatabase database = new ScratchDatabase("uid_mp", MybatisPlusTestApplication.TABLES);
				ConfigurableApplicationContext context = new SpringApplicationBuilder(MybatisPlusTestApplication.class)
					.web(WebApplicationType.NONE)
					.run("--spring.datasource.url=" + database.url(), "--spring.datasource.username=root",
							"--spring.datasource.password=", "--uid.generator=segment",
							"--uid.segment.db.initialize-schema=true", "--uid.segment.step=10")) {
			InvoiceMapper invoices = context.getBean(InvoiceMapper.class);
			OrderMapper orders = context.getBean(OrderMapper.class);
			List<Long> invoiceIds = new ArrayList<>();
			List<Long> orderIds = new ArrayList<>();
			for (int n = 0; n < 25; n++) {
				Invoice invoice = new Invoice("customer-" + n);
				invoices.insert(invoice);
				invoiceIds.add(invoice.getId());
				if (n % 5 == 0) {
					Order order = new Order(null, "item-" + n);
					orders.insert(order);
					orderIds.add(order.getId());
				}
			}
			assertThat(invoiceIds).containsExactlyElementsOf(LongStream.rangeClosed(1, 25).boxed().toList());
			assertThat(orderIds).containsExactly(1L, 2L, 3L, 4L, 5L);
		}
	}

}
