package io.github.uidgen.mybatis.app;

import java.util.List;

import org.apache.ibatis.annotations.Insert;
import org.apache.ibatis.annotations.Mapper;
import org.apache.ibatis.annotations.Param;
import org.apache.ibatis.annotations.Select;
import org.apache.ibatis.annotations.Update;

/** Inserts of one object, a list, an array and named parameters. */
@Mapper
public interface InvoiceMapper {

	@Insert("INSERT INTO invoice (id, customer) VALUES (#{id}, #{customer})")
	int insert(Invoice invoice);

	@Insert("<script>INSERT INTO invoice (id, customer) VALUES <foreach collection='list' item='i' separator=','>"
			+ "(#{i.id}, #{i.customer})</foreach></script>")
	int insertAll(List<Invoice> invoices);

	@Insert("<script>INSERT INTO invoice (id, customer) VALUES <foreach collection='array' item='i' separator=','>"
			+ "(#{i.id}, #{i.customer})</foreach></script>")
	int insertArray(Invoice[] invoices);

	@Insert("INSERT INTO invoice (id, customer) VALUES (#{invoice.id}, #{customer})")
	int insertFor(@Param("invoice") Invoice invoice, @Param("customer") String customer);

	@Insert("INSERT INTO ticket (id, title) VALUES (#{id}, #{title})")
	int insertTicket(Ticket ticket);

	@Insert("INSERT INTO invoice (id, customer) VALUES (#{id}, #{customer})")
	int insertTextId(Misfits.TextId misfit);

	@Insert("INSERT INTO invoice (id, customer) VALUES (#{id}, #{customer})")
	int insertFrozen(Misfits.Frozen misfit);

	@Update("UPDATE invoice SET customer = #{customer} WHERE id = #{id}")
	int update(Invoice invoice);

	@Select("SELECT id FROM invoice WHERE customer LIKE #{prefix}")
	List<Long> idsOf(String prefix);

	@Select("SELECT customer FROM invoice WHERE id = #{id}")
	String customerOf(long id);

}
