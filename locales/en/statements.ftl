# Monthly statements (src/statements): /statement, /statement october, /statement 2026-09.
# Texts that go into the PDF keep to Latin letters and common punctuation (the PDF's font is Helvetica).

statements-month-name = { $month ->
    [1] January
    [2] February
    [3] March
    [4] April
    [5] May
    [6] June
    [7] July
    [8] August
    [9] September
    [10] October
    [11] November
   *[12] December
}

statements-caption = 📄 Your statement for { statements-month-name } { $year }: { $orders ->
    [one] 1 order
   *[other] { $orders } orders
}, as a PDF and a CSV (for a spreadsheet).
statements-empty = You made no orders in { statements-month-name } { $year }, so there is no statement for it. Try another month, for example /statement { $year }-01.
statements-month-unknown = I could not tell which month "{ $words }" is. Name a month, for example /statement october, /statement 2026-09, or just /statement for this month.
statements-month-future = { statements-month-name } { $year } has not come yet. Ask for this month or an earlier one, for example /statement october.
statements-failed = Sorry, the statement could not be made just now. Please try again in a minute.
statements-file = statement

statements-title = Statement for { statements-month-name } { $year }
statements-period = Period: { $first } to { $last }, Nairobi time (Africa/Nairobi, UTC+3). Amounts as the orders recorded them.
statements-totals-heading = Totals (completed orders)
statements-total-buy = Buys: { $count } of { $orders } completed
statements-total-sell = Sells: { $count } of { $orders } completed
statements-total-tokens-in = Tokens received
statements-total-tokens-out = Tokens sent
statements-total-tokens-fees = Sell fees in tokens

statements-col-date = Date (Nairobi)
statements-col-order = Order ID
statements-col-side = Type
statements-col-state = State
statements-col-network = Network
statements-col-token = Token
statements-col-tokens = Token amount
statements-col-amount = Amount KES
statements-col-fee = Fee KES
statements-col-feeTokens = Fee (tokens)
statements-col-paid = Paid KES
statements-col-received = Received KES
statements-col-receipt = M-Pesa receipt
statements-col-hash = Transaction hash
statements-col-period = Period

statements-side-buy = Buy
statements-side-sell = Sell
statements-state-completed = Completed
statements-state-failed = Failed
statements-state-cancelled = Cancelled
statements-state-pending = Pending
statements-state-support = With support
