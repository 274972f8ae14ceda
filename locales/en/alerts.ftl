# Rate alerts: set, list, change, renew and delete; the notes the ticker sends.

alerts-ask-token = Which token should I watch for you?
alerts-ask-network = On which network should I watch { $token }?
alerts-ask-side = Tell you when { $token } on { $network } falls below a price (good for buying) or rises above one (good for selling)?
alerts-ask-level = At what price, in KES for 1 { $token }, should I tell you it is { $side ->
    [below] below
   *[above] above
} it? For example 128 or 128.5.
alerts-level-invalid = "{ $text }" is not a price I can use. Type the price in KES for one token, for example 128 or 128.5.
alerts-token-unknown = I do not know the token "{ $token }".
alerts-not-on-network = { $token } is not available on { $network }.
alerts-button-below = 📉 Falls below
alerts-button-above = 📈 Rises above
alerts-set = 🔔 Alert { $slot } set: I will tell you once when 1 { $token } on { $network } is { $side ->
    [below] at or below
   *[above] at or above
} { $level }. It lasts until { $expires }.
alerts-changed = 🔔 Alert { $slot } changed: I will tell you once when 1 { $token } on { $network } is { $side ->
    [below] at or below
   *[above] at or above
} { $level }. It lasts until { $expires }.
alerts-full = You already have { $max } rate alerts, the most allowed. Delete or change one in /alerts first.
alerts-none = You have no rate alerts. Set one with, for example, /alert USDT below 128.
alerts-list-title = Your rate alerts ({ $count } of { $max }):
alerts-item = { $slot }. { $token } on { $network } { $side ->
    [below] at or below
   *[above] at or above
} { $level }, until { $expires }
alerts-button-pick = 🔔 { $slot } { $token }
alerts-button-new = ➕ New alert
alerts-button-list = 🔔 My alerts
alerts-button-change = ✏️ Change price
alerts-button-renew = 🔁 Renew
alerts-button-delete = 🗑 Delete
alerts-button-alert-me = 🔔 Alert me
alerts-button-buy-now = 🛒 Buy now
alerts-button-sell-now = 💸 Sell now
alerts-deleted = Alert { $slot } deleted.
alerts-renewed = 🔁 Alert { $slot } renewed: it lasts until { $expires }.
alerts-missing = Alert { $slot } no longer exists (deleted, or it expired).
alerts-unavailable = Rate alerts are not available right now. Please try again later.
alerts-fired-below = 🔔 { $token } on { $network } is now KES { $rate } for 1 { $token }, at or below your alert of KES { $level }. Prices move: the price is checked again when you confirm a purchase.
alerts-fired-above = 🔔 { $token } on { $network } now sells for KES { $rate } for 1 { $token }, at or above your alert of KES { $level }. Prices move: the price is checked again when you confirm a sale.
alerts-expiring = ⏳ Your alert for { $token } on { $network } at KES { $level } ends on { $expires }. Renew it to keep it for another 30 days.
alerts-lost-after-outage = ⚠️ After a service interruption, some of your rate alerts could not be brought back (you have no free slot for them). Please check your alerts and set again the ones you miss.
