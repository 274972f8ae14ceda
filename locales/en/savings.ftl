# Standing buys: a weekly, monthly or daily M-Pesa saving into a token (/save, /savings).

savings-menu = 🗓 Standing buys
savings-usage = To save regularly, type for example: /save 500 KES USDT every friday, /save 500 USDT polygon weekly, /save 1000 USDT monthly on the 1st, or /save 200 USDT daily at 7am. Each time, I send you a reminder with Pay now: nothing moves until you enter your M-Pesa PIN. /savings lists your standing buys.
savings-bad-schedule = I could not read "{ $word }" as a day or an hour.
savings-no-token = Which token? Name one of: { $tokens }.
savings-not-on-network = { $token } cannot be bought on { $network }.
savings-every-day = Every day at { $hour } (Nairobi time).
savings-every-week = Every { $day ->
    [1] Monday
    [2] Tuesday
    [3] Wednesday
    [4] Thursday
    [5] Friday
    [6] Saturday
   *[7] Sunday
  } at { $hour } (Nairobi time).
savings-every-month = Every month on day { $day } at { $hour } (Nairobi time; in a shorter month, its last day).
savings-summary = Standing buy: { $kes } of { $token } on { $network }, to { $wallet }, paid from { $phone }. First run: { $first }.
savings-summary-note = Each run I send a reminder with Pay now and a fresh price; the M-Pesa prompt still needs your PIN. A run you do not pay within a few hours passes.
savings-button-confirm = ✅ Confirm
savings-tap-confirm = Tap Confirm to save this standing buy, or Cancel.
savings-created = Saved. First reminder: { $first }. /savings lists your standing buys.
savings-too-many = You already have { $max } standing buys. Cancel one in /savings first.
savings-not-found = That standing buy no longer exists.
savings-list-empty = You have no standing buys yet.
savings-list-title = Your standing buys:
savings-list-plan = { $n }. { $kes } of { $token } on { $network } to { $wallet }. Next: { $next }.
savings-list-plan-paused = { $n }. { $kes } of { $token } on { $network } to { $wallet }. Paused.
savings-run-sent = · Run { $run } ({ $period }): reminder sent, waiting for you.
savings-run-paid = · Run { $run } ({ $period }): paid, order { $orderId }.
savings-run-skipped = · Run { $run } ({ $period }): skipped.
savings-run-missed = · Run { $run } ({ $period }): missed (not paid in time).
savings-button-pause = ⏸ Pause { $n }
savings-button-resume = ▶️ Resume { $n }
savings-button-change = ✏️ Change { $n }
savings-button-cancel = 🗑 Cancel { $n }
savings-button-list = 🗓 Standing buys
savings-paused = Paused. No reminders until you resume it in /savings.
savings-resumed = Resumed. Next reminder: { $next }.
savings-cancelled = Cancelled. No more reminders for it.
savings-changed = Changed. Next reminder: { $next }.
savings-change-ask = Type the new amount (e.g. 700) or the new day (e.g. every monday, monthly on the 15th, daily at 8am).
savings-reminder = Your { $every ->
    [daily] daily
    [weekly] weekly
   *[monthly] monthly
  } saving: KES { $kes } → about { $about } { $token } to { $wallet }.
savings-reminder-plain = Your { $every ->
    [daily] daily
    [weekly] weekly
   *[monthly] monthly
  } saving: KES { $kes } of { $token } to { $wallet }.
savings-button-pay = 💳 Pay now
savings-button-skip = ⏭ Skip this time
savings-paying = Standing buy, run { $run }: an M-Pesa prompt for { $total } (fee { $fee } included) is on its way to { $phone }, for { $amount } to { $wallet }.
savings-skipped = Run { $run } skipped. The plan goes on as before.
savings-run-closed-passed = This run has passed; nothing was sent. The next reminder comes on the plan's next day.
savings-run-closed-paid = This run is paid already (order { $orderId }).
savings-run-closed-skipped = This run was skipped; nothing was sent.
savings-invalid-wallet = Your standing buy of { $token } is paused: its wallet address is no longer valid. Set it up again with /save.
savings-invalid-phone = Your standing buy of { $token } is paused: its M-Pesa number is no longer valid. Set it up again with /save.
savings-invalid-token = Your standing buy of { $token } is paused: that token is no longer offered on its network. Set up another with /save.
savings-history-run = Standing buy, run { $run }:
savings-history-runs = Standing buys, runs that bought nothing:
savings-history-skipped = · Standing buy of { $kes } of { $token }, run { $run } ({ $period }): skipped.
savings-history-missed = · Standing buy of { $kes } of { $token }, run { $run } ({ $period }): missed (not paid in time).
savings-lost-after-outage = ⚠️ After a service interruption, a standing buy of yours could not be brought back (you have no free slot for it). Please check your standing buys and set it up again if you still want it.
