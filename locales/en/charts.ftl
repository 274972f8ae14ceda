# Price charts: /price, the Chart button under a price; the words in the picture and its caption.

charts-button-chart = 📈 Chart
charts-ask-token = Which token's price chart would you like?
charts-ask-network = { $token } is on several networks. Which one's chart?
charts-token-unknown = I do not know the token "{ $token }".
charts-legend-buy = Buy rate
charts-legend-sell = Sell rate
charts-range = { $range ->
    [day] 24 hours
    [week] 7 days
   *[month] 30 days
}
charts-range-on = • { $range ->
    [day] 24 hours
    [week] 7 days
   *[month] 30 days
} •
charts-title-24h = { $token } on { $network }, the last 24 hours (KES for 1 { $token })
charts-title-7d = { $token } on { $network }, the last 7 days (KES for 1 { $token })
charts-title-30d = { $token } on { $network }, the last 30 days (KES for 1 { $token })
charts-buy-now = 🟢 Buy rate now: { $rate }
charts-sell-now = 🟠 Sell rate now: { $rate }
charts-buy-change = 🟢 Buy rate now: { $rate } ({ $change } in { $range ->
    [day] 24 hours
    [week] 7 days
   *[month] 30 days
})
charts-sell-change = 🟠 Sell rate now: { $rate } ({ $change } in { $range ->
    [day] 24 hours
    [week] 7 days
   *[month] 30 days
})
charts-since = Rates kept since { $since }: the chart fills in as they come.
charts-empty = I have no rates of { $token } on { $network } kept yet. I note them every minute from now on: ask again in a few minutes.
charts-failed = I could not draw the chart just now. Please try again in a moment.
